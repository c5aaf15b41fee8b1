package io.tunelab.workload;

import io.tunelab.testing.RepoFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/** Captured tool output under {@code src/test/resources/workload} and how goldens print numbers. */
final class Captures {
  private Captures() {}

  /** The captures in {@code workload/<dir>} whose names end with {@code suffix}, sorted. */
  static List<Path> captures(String dir, String suffix) {
    try (Stream<Path> s = Files.list(RepoFiles.testResources("workload/" + dir))) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The lines of a capture as the agent returns them (no line ends); none if it is absent. */
  static List<String> lines(Path capture) {
    return Files.exists(capture) ? RepoFiles.read(capture).lines().toList() : List.of();
  }

  static Path sibling(Path capture, String suffix, String newSuffix) {
    String name = capture.getFileName().toString();
    return capture.resolveSibling(name.substring(0, name.length() - suffix.length()) + newSuffix);
  }

  /** Whole numbers as such, others with six decimals: stable across JDKs. */
  static String number(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return String.format(Locale.ROOT, "%.6f", v);
  }
}
