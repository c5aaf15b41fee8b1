package io.tunelab.cli;

import io.tunelab.TunelabException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --set NAME=VALUE} of {@code run}, {@code plan} and {@code hosts check}: the run's
 * overrides of the matrix.
 */
final class SetOption {
  @Option(
      names = "--set",
      paramLabel = "NAME=VALUE",
      description =
          "Override the matrix for this run (repeatable): a params: entry, an axis narrowed to"
              + " one value (--set bs=64M; an axis of cases takes one of its cases), or repeat,"
              + " warmup, seed, order. Stored with the experiment, so resume runs the same.")
  List<String> given = new ArrayList<>();

  /** Name to value, in the order given; exit 2 for a malformed or repeated one. */
  Map<String, String> overrides() {
    Map<String, String> set = new LinkedHashMap<>();
    for (String g : given) {
      int eq = g.indexOf('=');
      if (eq <= 0) {
        throw new TunelabException(
            TunelabException.BAD_INPUT, "--set " + g + ": give NAME=VALUE, e.g. --set total=64MiB");
      }
      String name = g.substring(0, eq);
      if (set.put(name, g.substring(eq + 1)) != null) {
        throw new TunelabException(
            TunelabException.BAD_INPUT, "--set " + name + " is given twice: give it once");
      }
    }
    return set;
  }

  /** The overrides as a command line gives them: {@code portal=192.0.2.11:3260 repeat=1}. */
  static String text(Map<String, String> overrides) {
    List<String> pairs = new ArrayList<>();
    overrides.forEach((name, value) -> pairs.add(name + "=" + value));
    return String.join(" ", pairs);
  }
}
