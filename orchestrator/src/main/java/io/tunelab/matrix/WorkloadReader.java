package io.tunelab.matrix;

import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.YamlNode;
import java.util.List;

/**
 * Reads {@code workload}: a dd run ({@link DdReader}) or any command, with the checks that can be
 * made early.
 */
final class WorkloadReader {
  private static final List<String> KEYS = List.of("on", "dd", "command", "parser", "processes");
  private static final List<String> PARSERS = List.of("dd", "none");

  private final NodeReader in;
  private final Roles roles;
  private final Variables variables;
  private final VariableUses uses;
  private final NumberFields numbers;

  WorkloadReader(NodeReader in, Roles roles, Variables variables, VariableUses uses) {
    this.in = in;
    this.roles = roles;
    this.variables = variables;
    this.uses = uses;
    this.numbers = new NumberFields(in, variables);
  }

  Workload read(YamlNode node) {
    YamlNode.Mapping map = in.mapping(node, "workload");
    if (map == null) {
      return null;
    }
    in.onlyKeys(map, "workload", KEYS);
    String on = roles.on(map, "workload.on");
    YamlNode dd = map.get("dd");
    YamlNode command = map.get("command");
    if (dd != null && command != null) {
      in.problem(map.position(), "workload", "give either dd or command, not both");
      return null;
    }
    if (dd == null && command == null) {
      in.problem(map.position(), "workload", "give dd (a dd run) or command (any program)");
      return null;
    }
    if (dd != null) {
      for (String misplaced : List.of("parser", "processes")) {
        YamlNode.Entry e = map.byKey().get(misplaced);
        if (e != null) {
          in.problem(
              e.keyPosition(),
              "workload." + misplaced,
              misplaced.equals("parser")
                  ? "a dd workload is always parsed as dd; parser is for command workloads"
                  : "belongs under dd (workload.dd.processes)");
        }
      }
      return new DdReader(in, variables, uses, numbers).read(dd, on);
    }
    return command(map, command, on);
  }

  private Workload command(YamlNode.Mapping map, YamlNode node, String on) {
    String command = in.text(node, "workload.command");
    if (command != null) {
      command = ValueRules.stripTrailingNewlines(command);
      String why = ValueRules.commandProblem(command);
      if (why != null) {
        in.problem(node.position(), "workload.command", why);
        command = null;
      } else {
        uses.use(command, node.position(), "workload.command", VariableUses.Context.WORKLOAD);
      }
    }
    String parser = "none";
    YamlNode parserNode = map.get("parser");
    if (parserNode != null) {
      parser = in.text(parserNode, "workload.parser");
      if (parser != null && !PARSERS.contains(parser)) {
        in.problem(
            parserNode.position(),
            "workload.parser",
            "'"
                + parser
                + "' is not a parser (parsers: dd, none)"
                + DidYouMean.hint(parser, PARSERS));
        parser = null;
      }
    }
    String processes = numbers.processes(map.get("processes"), "workload.processes");
    if (on == null || command == null || parser == null || processes == null) {
      return null;
    }
    return new Workload.Command(on, command, parser, processes, map.position());
  }
}
