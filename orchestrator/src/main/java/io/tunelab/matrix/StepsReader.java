package io.tunelab.matrix;

import io.tunelab.yaml.YamlNode;
import java.util.ArrayList;
import java.util.List;

/** Reads {@code setup} and {@code teardown}: shell commands run once per experiment. */
final class StepsReader {
  private static final List<String> KEYS = List.of("on", "run", "capture");

  private final NodeReader in;
  private final Scope scope;

  /** Captured names so far: setup's are visible in later setup steps and in teardown. */
  private final List<String> captured = new ArrayList<>();

  StepsReader(NodeReader in, Scope scope) {
    this.in = in;
    this.scope = scope;
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
    String on = on(map, path);
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
          scope.useInStep(run, runNode.position(), path + ".run", captured);
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
          && scope.defineCapture(capture, captureNode.position(), path + ".capture", teardown)) {
        captured.add(capture);
      }
    }
    if (on == null || run == null) {
      return null;
    }
    return new Step(on, run, capture, map.position());
  }

  private String on(YamlNode.Mapping map, String path) {
    YamlNode node = map.get("on");
    if (node != null) {
      return scope.role(node, path + ".on");
    }
    String only = scope.onlyRole();
    if (only == null) {
      in.problem(
          map.position(),
          path + ".on",
          "required when there are several roles ("
              + String.join(", ", scope.roles().keySet())
              + ")");
    }
    return only;
  }
}
