package io.tunelab.matrix;

import io.tunelab.yaml.YamlNode;
import java.util.ArrayList;
import java.util.List;

/** Reads {@code setup} and {@code teardown}: shell commands run once per experiment. */
final class StepsReader {
  private static final List<String> KEYS = List.of("on", "run", "capture");

  private final NodeReader in;
  private final Roles roles;
  private final Variables variables;
  private final VariableUses uses;

  /** Captured names so far: setup's are visible in later setup steps and in teardown. */
  private final List<String> captured = new ArrayList<>();

  StepsReader(NodeReader in, Roles roles, Variables variables, VariableUses uses) {
    this.in = in;
    this.roles = roles;
    this.variables = variables;
    this.uses = uses;
  }

  /** Reads setup first, then teardown, so teardown sees every setup capture. */
  List<Step> read(YamlNode node, String section) {
    if (node == null) {
      return List.of();
    }
    YamlNode.Sequence list = in.sequence(node, section);
    if (list == null) {
      return List.of();
    }
    List<Step> steps = new ArrayList<>();
    int number = 0;
    for (YamlNode item : list.items()) {
      number++;
      Step step = step(item, section + "[" + number + "]", section.equals("teardown"));
      if (step != null) {
        steps.add(step);
      }
    }
    return List.copyOf(steps);
  }

  private Step step(YamlNode item, String path, boolean teardown) {
    YamlNode.Mapping map = in.mapping(item, path);
    if (map == null) {
      return null;
    }
    in.onlyKeys(map, path, KEYS);
    String on = roles.on(map, path + ".on");
    String run = null;
    YamlNode runNode = map.get("run");
    if (runNode == null) {
      in.problem(map.position(), path + ".run", "required key is missing");
    } else {
      run = in.text(runNode, path + ".run");
      if (run != null) {
        run = ValueRules.stripTrailingNewlines(run);
        String why = ValueRules.commandProblem(run);
        if (why != null) {
          in.problem(runNode.position(), path + ".run", why);
        } else {
          uses.useInStep(run, runNode.position(), path + ".run", captured);
        }
      }
    }
    String capture = null;
    YamlNode captureNode = map.get("capture");
    if (captureNode != null) {
      capture = in.text(captureNode, path + ".capture");
      if (capture != null && !Substitution.isName(capture)) {
        in.problem(
            captureNode.position(),
            path + ".capture",
            "'"
                + capture
                + "' is not a variable name (letters, digits and _, not starting with"
                + " a digit)");
        capture = null;
      } else if (capture != null
          && variables.defineCapture(
              capture, captureNode.position(), path + ".capture", teardown)) {
        captured.add(capture);
      }
    }
    if (on == null || run == null) {
      return null;
    }
    return new Step(on, run, capture, map.position());
  }
}
