package io.tunelab.matrix;

import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.Position;
import io.tunelab.yaml.Problem;
import io.tunelab.yaml.YamlNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** Reads {@code workload}: a dd run or any command, with the checks that can be made early. */
final class WorkloadReader {
  static final int MAX_PROCESSES = 10_000;
  private static final List<String> KEYS = List.of("on", "dd", "command", "parser", "processes");
  private static final List<String> DD_KEYS =
      List.of("input", "output", "bs", "count", "total", "flags", "processes");
  private static final List<String> PARSERS = List.of("dd", "none");
  private static final Pattern FLAG = Pattern.compile("(iflag|oflag|conv)=[a-z_,]+");

  private final NodeReader in;
  private final Roles roles;
  private final Variables variables;
  private final VariableUses uses;

  WorkloadReader(NodeReader in, Roles roles, Variables variables, VariableUses uses) {
    this.in = in;
    this.roles = roles;
    this.variables = variables;
    this.uses = uses;
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
      return dd(dd, on);
    }
    return command(map, command, on);
  }

  private Workload dd(YamlNode node, String on) {
    YamlNode.Mapping map = in.mapping(node, "workload.dd");
    if (map == null) {
      return null;
    }
    in.onlyKeys(map, "workload.dd", DD_KEYS);
    String input = operand(map, "input");
    String output = operand(map, "output");
    String bs = required(map, "bs");
    if (bs != null) {
      checkSize(map.get("bs"), bs, "workload.dd.bs");
    }
    String count = null;
    String total = null;
    boolean hasCount = map.get("count") != null;
    boolean hasTotal = map.get("total") != null;
    if (hasCount && hasTotal) {
      in.problem(map.position(), "workload.dd", "give count or total, not both");
    } else if (!hasCount && !hasTotal) {
      in.problem(
          map.position(),
          "workload.dd",
          "give count (blocks per dd) or total (bytes per dd, a multiple of bs)");
    } else if (hasCount) {
      count = in.text(map.get("count"), "workload.dd.count");
      if (count != null) {
        checkWholeNumber(map.get("count"), count, "workload.dd.count", Long.MAX_VALUE);
      }
    } else {
      total = in.text(map.get("total"), "workload.dd.total");
      if (total != null && checkSize(map.get("total"), total, "workload.dd.total") && bs != null) {
        checkMultiple(map.get("total").position(), total, bs);
      }
    }
    List<String> flags = flags(map.get("flags"));
    String processes = processes(map.get("processes"), "workload.dd.processes");
    if (on == null
        || input == null
        || output == null
        || bs == null
        || flags == null
        || processes == null
        || (count == null && total == null)) {
      return null;
    }
    return new Workload.Dd(on, input, output, bs, count, total, flags, processes, map.position());
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
    String processes = processes(map.get("processes"), "workload.processes");
    if (on == null || command == null || parser == null || processes == null) {
      return null;
    }
    return new Workload.Command(on, command, parser, processes, map.position());
  }

  /** A dd operand (if=, of=): a path that may name variables but holds nothing a shell reads. */
  private String operand(YamlNode.Mapping map, String name) {
    String key = "workload.dd." + name;
    String value = required(map, name);
    if (value == null) {
      return null;
    }
    Position at = map.get(name).position();
    String literal = value.replaceAll("\\$\\{[A-Za-z_][A-Za-z0-9_]*}", "");
    String why = ValueRules.parameterProblem(literal.isEmpty() ? "x" : literal);
    if (why != null) {
      in.problem(
          at,
          key,
          "'"
              + Problem.printable(value)
              + "' holds whitespace or a shell character: dd"
              + " operands are paths, optionally with ${variables}");
      return null;
    }
    uses.use(value, at, key, VariableUses.Context.WORKLOAD);
    return value;
  }

  private String required(YamlNode.Mapping map, String name) {
    YamlNode node = map.get(name);
    if (node == null) {
      in.problem(map.position(), "workload.dd." + name, "required key is missing");
      return null;
    }
    return in.text(node, "workload.dd." + name);
  }

  /** Checks a size written literally or as one {@code ${parameter}} (then each of its values). */
  private boolean checkSize(YamlNode node, String text, String key) {
    List<ValueAt> values = literalOrParameterValues(node, text, key, "a size such as 1M");
    if (values == null) {
      return false;
    }
    boolean ok = true;
    for (ValueAt v : values) {
      String why = null;
      try {
        if (Sizes.parseBytes(v.value()) == 0) {
          why = "a size must be more than 0";
        }
      } catch (IllegalArgumentException e) {
        why = e.getMessage();
      }
      if (why != null) {
        ok = false;
        in.problem(v.position(), v.key(), why + usedAs(v, key));
      }
    }
    return ok;
  }

  private void checkWholeNumber(YamlNode node, String text, String key, long max) {
    List<ValueAt> values = literalOrParameterValues(node, text, key, "a whole number");
    if (values == null) {
      return;
    }
    for (ValueAt v : values) {
      long n;
      try {
        n = Long.parseLong(v.value());
      } catch (NumberFormatException e) {
        n = 0;
      }
      if (n < 1 || n > max) {
        String range = max == Long.MAX_VALUE ? "of at least 1" : "from 1 to " + max;
        in.problem(
            v.position(),
            v.key(),
            "'" + v.value() + "' is not a whole number " + range + usedAs(v, key));
      }
    }
  }

  /**
   * The values a field can take: the literal itself, or every value of the one parameter it names.
   * Null (with a problem) when it is neither.
   */
  private List<ValueAt> literalOrParameterValues(
      YamlNode node, String text, String key, String what) {
    if (text.indexOf('$') < 0) {
      return List.of(new ValueAt(text, node.position(), key));
    }
    Variable v = variables.soleParameter(text);
    if (v == null) {
      in.problem(
          node.position(),
          key,
          "write "
              + what
              + " or a single ${parameter} (a matrix or case parameter), not '"
              + text
              + "'");
      return null;
    }
    return valuesOf(v);
  }

  private static List<ValueAt> valuesOf(Variable v) {
    return v.kind == Variable.Kind.PARAMETER ? v.values : new ArrayList<>(v.byCase.values());
  }

  /** Appended to a problem found in a parameter's value: which field needed it. */
  private static String usedAs(ValueAt v, String field) {
    return v.key().equals(field) ? "" : " (" + field + " uses it)";
  }

  /** total must be a whole number of blocks: dd runs count = total / bs blocks. */
  private void checkMultiple(Position at, String total, String bs) {
    Variable bsVar = variables.soleParameter(bs);
    Variable totalVar = variables.soleParameter(total);
    Set<String> reported = new LinkedHashSet<>();
    boolean sameCases =
        bsVar != null
            && totalVar != null
            && bsVar.kind == Variable.Kind.CASE_PARAMETER
            && totalVar.kind == Variable.Kind.CASE_PARAMETER
            && bsVar.axis.equals(totalVar.axis);
    if (sameCases) {
      for (Map.Entry<String, ValueAt> t : totalVar.byCase.entrySet()) {
        ValueAt b = bsVar.byCase.get(t.getKey());
        if (b != null) {
          checkPair(at, t.getValue().value(), b.value(), reported);
        }
      }
    } else {
      for (String t : texts(totalVar, total)) {
        for (String b : texts(bsVar, bs)) {
          checkPair(at, t, b, reported);
        }
      }
    }
  }

  private static List<String> texts(Variable v, String literal) {
    if (v == null) {
      return List.of(literal);
    }
    List<String> texts = new ArrayList<>();
    for (ValueAt value : valuesOf(v)) {
      texts.add(value.value());
    }
    return texts;
  }

  private void checkPair(Position at, String total, String bs, Set<String> reported) {
    long t;
    long b;
    try {
      t = Sizes.parseBytes(total);
      b = Sizes.parseBytes(bs);
    } catch (IllegalArgumentException e) {
      return; // reported where the size is written
    }
    if (b > 0 && t % b != 0) {
      String message =
          "total "
              + total
              + " ("
              + t
              + " bytes) is not a multiple of bs "
              + bs
              + " ("
              + b
              + " bytes): dd runs total/bs whole blocks";
      if (reported.add(message)) {
        in.problem(at, "workload.dd.total", message);
      }
    }
  }

  private List<String> flags(YamlNode node) {
    if (node == null) {
      return List.of();
    }
    YamlNode.Sequence list = in.sequence(node, "workload.dd.flags");
    if (list == null) {
      return null;
    }
    List<String> flags = new ArrayList<>();
    Set<String> operands = new LinkedHashSet<>();
    boolean ok = true;
    for (YamlNode item : list.items()) {
      String flag = in.text(item, "workload.dd.flags");
      String why = flag == null ? "" : flagProblem(flag);
      if (why == null && !operands.add(flag.substring(0, flag.indexOf('=')))) {
        String operand = flag.substring(0, flag.indexOf('='));
        why = operand + " is given twice: join the values, e.g. " + operand + "=direct,sync";
      }
      if (why != null) {
        ok = false;
        if (!why.isEmpty()) {
          in.problem(item.position(), "workload.dd.flags", why);
        }
      } else {
        flags.add(flag);
      }
    }
    return ok ? List.copyOf(flags) : null;
  }

  private static String flagProblem(String flag) {
    if (flag.startsWith("status=")) {
      return "'"
          + flag
          + "' is not allowed: tunelab reads dd's closing summary, which status="
          + " would change or hide";
    }
    if (!FLAG.matcher(flag).matches()) {
      return "'"
          + flag
          + "' is not a dd flag: write iflag=..., oflag=... or conv=...,"
          + " e.g. iflag=direct";
    }
    if (flag.contains("count_bytes")) {
      return "'" + flag + "' is not allowed: tunelab sets count itself (total / bs blocks)";
    }
    return null;
  }

  private String processes(YamlNode node, String key) {
    if (node == null) {
      return "1";
    }
    String text = in.text(node, key);
    if (text == null) {
      return null;
    }
    int before = in.problems().size();
    checkWholeNumber(node, text, key, MAX_PROCESSES);
    return in.problems().size() == before ? text : null;
  }
}
