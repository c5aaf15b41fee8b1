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
 * Reads a {@code dd} job with the checks of a dd run: operands that are paths, a block size, count
 * or a total that is a whole number of blocks, and flags tunelab can parse the output of.
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

  /**
   * Reads a dd job's map ({@code workload.dd}); null (with problems) when it cannot run. Its {@code
   * processes} is read with the job's other common keys.
   *
   * @param path where the map is written: {@code workload.dd}, {@code workload.jobs.NAME.dd}
   */
  Workload.Dd read(YamlNode node, String path) {
    YamlNode.Mapping map = in.mapping(node, path);
    if (map == null) {
      return null;
    }
    in.onlyKeys(map, path, KEYS);
    String input = operand(map, path, "input");
    String output = operand(map, path, "output");
    String bs = required(map, path, "bs");
    if (bs != null) {
      numbers.checkSize(map.get("bs"), bs, path + ".bs");
    }
    String count = null;
    String total = null;
    boolean hasCount = map.get("count") != null;
    boolean hasTotal = map.get("total") != null;
    if (hasCount && hasTotal) {
      in.problem(map.position(), path, "give count or total, not both");
    } else if (!hasCount && !hasTotal) {
      in.problem(
          map.position(),
          path,
          "give count (blocks per dd) or total (bytes per dd, a multiple of bs)");
    } else if (hasCount) {
      count = in.text(map.get("count"), path + ".count");
      if (count != null) {
        numbers.checkWholeNumber(map.get("count"), count, path + ".count", Long.MAX_VALUE);
      }
    } else {
      total = in.text(map.get("total"), path + ".total");
      if (total != null
          && numbers.checkSize(map.get("total"), total, path + ".total")
          && bs != null) {
        checkMultiple(map.get("total").position(), path + ".total", total, bs);
      }
    }
    List<String> flags = DdFlags.read(in, map.get("flags"), path + ".flags");
    if (input == null
        || output == null
        || bs == null
        || flags == null
        || (count == null && total == null)) {
      return null;
    }
    return new Workload.Dd(input, output, bs, count, total, flags, map.position());
  }

  /** A dd operand (if=, of=): a path that may name variables but holds nothing a shell reads. */
  private String operand(YamlNode.Mapping map, String path, String name) {
    String key = path + "." + name;
    String value = required(map, path, name);
    if (value == null) {
      return null;
    }
    Position at = map.get(name).position();
    String literal;
    try {
      literal = Substitution.literalText(value);
    } catch (IllegalArgumentException e) {
      in.problem(at, key, e.getMessage());
      return null;
    }
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

  private String required(YamlNode.Mapping map, String path, String name) {
    YamlNode node = map.get(name);
    if (node == null) {
      in.problem(map.position(), path + "." + name, "required key is missing");
      return null;
    }
    return in.text(node, path + "." + name);
  }

  /** total must be a whole number of blocks: dd runs count = total / bs blocks. */
  private void checkMultiple(Position at, String key, String total, String bs) {
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
          checkPair(at, key, t.getValue().value(), b.value(), reported);
        }
      }
    } else {
      for (String t : texts(totalVar, total)) {
        for (String b : texts(bsVar, bs)) {
          checkPair(at, key, t, b, reported);
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

  private void checkPair(Position at, String key, String total, String bs, Set<String> reported) {
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
        in.problem(at, key, message);
      }
    }
  }
}
