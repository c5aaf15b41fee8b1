package io.tunelab.matrix;

import io.tunelab.yaml.YamlNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a dd job's {@code flags}: only {@code iflag=}, {@code oflag=} and {@code conv=}, each
 * once, and nothing that would change the closing summary tunelab parses.
 */
final class DdFlags {
  private static final Pattern FLAG = Pattern.compile("(iflag|oflag|conv)=[a-z_,]+");

  private DdFlags() {}

  /** The flags, none when left out; null (with problems) when one is refused. */
  static List<String> read(NodeReader in, YamlNode node, String key) {
    if (node == null) {
      return List.of();
    }
    YamlNode.Sequence list = in.sequence(node, key);
    if (list == null) {
      return null;
    }
    List<String> flags = new ArrayList<>();
    Set<String> operands = new LinkedHashSet<>();
    boolean ok = true;
    for (YamlNode item : list.items()) {
      String flag = in.text(item, key);
      String why = flag == null ? "" : flagProblem(flag);
      if (why == null && !operands.add(flag.substring(0, flag.indexOf('=')))) {
        String operand = flag.substring(0, flag.indexOf('='));
        why = operand + " is given twice: join the values, e.g. " + operand + "=direct,sync";
      }
      if (why != null) {
        ok = false;
        if (!why.isEmpty()) {
          in.problem(item.position(), key, why);
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
}
