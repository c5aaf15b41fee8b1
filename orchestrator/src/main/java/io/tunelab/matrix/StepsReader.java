package io.tunelab.matrix;

import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.YamlNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads lists of steps: {@code setup} and {@code teardown} (once per experiment), {@code
 * cell_setup} and {@code cell_teardown} (once per cell), or {@code before_trial} and {@code
 * after_trial} (every trial).
 */
final class StepsReader {
  /** How often the steps run, which decides what they may use and capture. */
  enum Scope {
    EXPERIMENT,
    CELL,
    TRIAL
  }

  private static final List<String> KEYS = List.of("on", "run", "capture");
  private static final List<String> BUILTINS = List.of("sync", "drop_caches");

  private final NodeReader in;
  private final Roles roles;
  private final Variables variables;
  private final VariableUses uses;
  private final Scope scope;

  /** Captured names so far: a setup's are visible in later steps and in its teardown. */
  private final List<String> captured = new ArrayList<>();

  StepsReader(NodeReader in, Roles roles, Variables variables, VariableUses uses, Scope scope) {
    this.in = in;
    this.roles = roles;
    this.variables = variables;
    this.uses = uses;
    this.scope = scope;
  }

  /** Reads a setup list first, then its teardown, so the teardown sees every setup capture. */
  List<Step> read(YamlNode node, String section) {
    YamlNode.Sequence list = list(node, section);
    if (list == null) {
      return List.of();
    }
    List<Step> steps = new ArrayList<>();
    int number = 0;
    for (YamlNode item : list.items()) {
      number++;
      YamlNode.Mapping map = in.mapping(item, section + "[" + number + "]");
      Step step = map == null ? null : step(map, section + "[" + number + "]", section);
      if (step != null) {
        steps.add(step);
      }
    }
    return List.copyOf(steps);
  }

  /** Reads {@code before_trial} or {@code after_trial}: sync, drop_caches and {on, run} steps. */
  List<TrialStep> readTrialSteps(YamlNode node, String section) {
    YamlNode.Sequence list = list(node, section);
    if (list == null) {
      return List.of();
    }
    List<TrialStep> steps = new ArrayList<>();
    Set<String> builtins = new LinkedHashSet<>();
    int number = 0;
    for (YamlNode item : list.items()) {
      number++;
      if (item instanceof YamlNode.Mapping map) {
        Step step = step(map, section + "[" + number + "]", section);
        if (step != null) {
          steps.add(new TrialStep(TrialStep.Kind.COMMAND, step));
        }
        continue;
      }
      String name = in.text(item, section);
      if (name == null) {
        continue;
      }
      if (!BUILTINS.contains(name)) {
        in.problem(
            item.position(),
            section,
            "'"
                + name
                + "' is not a step (steps: sync, drop_caches, or a command as {on: ROLE, run:"
                + " COMMAND})"
                + DidYouMean.hint(name, BUILTINS));
      } else if (!builtins.add(name)) {
        in.problem(item.position(), section, "'" + name + "' is given twice");
      } else {
        TrialStep.Kind kind =
            name.equals("sync") ? TrialStep.Kind.SYNC : TrialStep.Kind.DROP_CACHES;
        steps.add(new TrialStep(kind, null));
      }
    }
    return List.copyOf(steps);
  }

  private YamlNode.Sequence list(YamlNode node, String section) {
    return node == null ? null : in.sequence(node, section);
  }

  private Step step(YamlNode.Mapping map, String path, String section) {
    if (scope == Scope.TRIAL && map.byKey().containsKey("capture")) {
      in.problem(
          map.byKey().get("capture").keyPosition(),
          path + ".capture",
          section
              + " runs at every trial and cannot capture: capture in setup (once) or cell_setup"
              + " (once per cell)");
    }
    in.onlyKeys(map, path, KEYS); // a trial step's capture is refused above, with its reason
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
          useRun(run, runNode, path + ".run");
        }
      }
    }
    String capture = null;
    boolean list = false;
    YamlNode captureNode = scope == Scope.TRIAL ? null : map.get("capture");
    if (captureNode != null) {
      capture = in.text(captureNode, path + ".capture");
      if (capture != null && capture.endsWith("[]")) {
        list = true;
        capture = capture.substring(0, capture.length() - 2);
      }
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
              capture, captureKind(section), list, captureNode.position(), path + ".capture")) {
        captured.add(capture);
      }
    }
    if (on == null || run == null) {
      return null;
    }
    return new Step(on, run, capture, list, map.position());
  }

  private void useRun(String run, YamlNode node, String key) {
    switch (scope) {
      case EXPERIMENT -> uses.useInStep(run, node.position(), key, captured);
      case CELL -> uses.useInCellStep(run, node.position(), key, captured);
      case TRIAL -> uses.use(run, node.position(), key, VariableUses.Context.TRIAL_STEP);
    }
  }

  private static Variable.Kind captureKind(String section) {
    return switch (section) {
      case "setup" -> Variable.Kind.SETUP_CAPTURE;
      case "teardown" -> Variable.Kind.TEARDOWN_CAPTURE;
      case "cell_setup" -> Variable.Kind.CELL_CAPTURE;
      default -> Variable.Kind.CELL_TEARDOWN_CAPTURE;
    };
  }
}
