package io.tunelab.matrix;

import io.tunelab.yaml.Position;
import io.tunelab.yaml.Problem;
import io.tunelab.yaml.YamlNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@code workload.dd} with the checks of a dd run: operands that are paths, a block size,
 * count or a total that is a whole number of blocks, and flags tunelab can parse the output of.
 */
final class DdReader {
  private static final List<String> KEYS =
      List.of("input", "output", "bs", "count", "total", "flags", "processes");

  private final NodeReader in;
  private final Variables variables;
  private final VariableUses uses;
  private final NumberFields numbers;

  DdReader(NodeReader in, Variables variables, VariableUses uses, NumberFields numbers) {
    this.in = in;
    this.variables = variables;
    this.uses = uses;
    this.numbers = numbers;
  }

  /** Reads {@code workload.dd}; null (with problems) when it cannot run. */
  Workload read(YamlNode node, String on) {
    YamlNode.Mapping map = in.mapping(node, "workload.dd");
    if (map == null) {
      return null;
    }
    in.onlyKeys(map, "workload.dd", KEYS);
    String input = operand(map, "input");
    String output = operand(map, "output");
    String bs = required(map, "bs");
    if (bs != null) {
      numbers.checkSize(map.get("bs"), bs, "workload.dd.bs");
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
        numbers.checkWholeNumber(map.get("count"), count, "workload.dd.count", Long.MAX_VALUE);
      }
    } else {
      total = in.text(map.get("total"), "workload.dd.total");
      if (total != null
          && numbers.checkSize(map.get("total"), total, "workload.dd.total")
          && bs != null) {
        checkMultiple(map.get("total").position(), total, bs);
      }
    }
    List<String> flags = DdFlags.read(in, map.get("flags"));
    String processes = numbers.processes(map.get("processes"), "workload.dd.processes");
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
    for (ValueAt value : v.allValues()) {
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
}
