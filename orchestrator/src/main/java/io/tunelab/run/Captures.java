package io.tunelab.run;

import io.tunelab.TunelabException;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.Step;
import io.tunelab.matrix.Substitution;
import io.tunelab.store.OpenCell;
import io.tunelab.store.RunStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a step's standard output gives a {@code capture}: the basename of its last line, or of every
 * non-empty line for a list. Captured values go into shell commands and paths, so each must be one
 * safe word.
 */
public final class Captures {
  private Captures() {}

  /**
   * Refuses, with exit code 3 and before anything runs, what {@code store} gives back as the
   * captures of {@code experimentId} (its setup's, its open cell's) when no capture of {@code
   * matrix} could have produced it. The database is a file anyone with write access can edit, and
   * its captures go into shell commands again.
   */
  public static void recheck(RunStore store, long experimentId, Matrix matrix) {
    recheck(store.location(), matrix.setup(), store.variables(experimentId));
    Optional<OpenCell> open = store.openCell(experimentId);
    if (open.isPresent()) {
      recheck(store.location(), matrix.cellSetup(), open.get().captures());
    }
  }

  /**
   * Refuses a capture read back from {@code source} that {@code steps} did not capture, or whose
   * value (each element of a list) is no safe word by the rule it was captured with ({@link
   * #problem}).
   */
  static void recheck(String source, List<Step> steps, Map<String, String> stored) {
    stored.forEach(
        (name, value) -> {
          Optional<Step> step = steps.stream().filter(s -> name.equals(s.capture())).findFirst();
          if (step.isEmpty()) {
            throw storedRefused(source, name, value, "no step of the matrix captures it");
          }
          List<String> elements =
              step.get().captureList() ? Substitution.elements(value) : List.of(value);
          for (String element : elements) {
            Optional<String> why = problem(element);
            if (why.isPresent()) {
              throw storedRefused(source, name, value, "no safe value: " + why.get());
            }
          }
        });
  }

  private static TunelabException storedRefused(
      String source, String name, String value, String why) {
    return new TunelabException(
        TunelabException.HOST_REFUSED,
        source
            + ": the stored capture ${"
            + name
            + "} = '"
            + value.replace("\n", "\\n")
            + "' is refused ("
            + why
            + "); nothing was run: the database was changed after the run stored it");
  }

  /**
   * The lines a capture reads: the last one (or an empty one), or for a list every non-empty one.
   */
  static List<String> lines(List<String> stdout, boolean list) {
    if (list) {
      return stdout.stream().filter(l -> !l.isBlank()).toList();
    }
    return List.of(stdout.isEmpty() ? "" : stdout.get(stdout.size() - 1));
  }

  /** What follows the last {@code /} of a trimmed line, trailing slashes aside. */
  static String basename(String line) {
    String p = line.trim();
    while (p.length() > 1 && p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p.substring(p.lastIndexOf('/') + 1);
  }

  /**
   * Why {@code value} is no safe word: it must be letters, digits and {@code . _ : + -}, not only
   * dots (a path step such as {@code ..}) and not start with {@code -} (an option to the command
   * that gets it).
   */
  static Optional<String> problem(String value) {
    if (!value.matches("[A-Za-z0-9._:+-]+")) {
      return Optional.of("letters, digits and . _ : + - only");
    }
    if (value.matches("\\.+")) {
      return Optional.of("not only dots, which step through directories");
    }
    if (value.startsWith("-")) {
      return Optional.of("not starting with -, which a command reads as an option");
    }
    return Optional.empty();
  }
}
