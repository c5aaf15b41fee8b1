package io.tunelab.yaml;

import io.tunelab.TunelabException;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A YAML document that cannot be used, with every problem found, one line each, in file order (exit
 * code 2).
 */
public abstract class DocumentException extends TunelabException {
  private static final Comparator<Problem> FILE_ORDER =
      Comparator.comparingInt((Problem p) -> p.position().line())
          .thenComparingInt(p -> p.position().column());

  private final List<Problem> problems;

  /** Problems at the same position keep the order given. */
  protected DocumentException(List<Problem> problems) {
    super(BAD_INPUT, render(problems));
    this.problems = problems.stream().sorted(FILE_ORDER).toList();
  }

  /** The problems, sorted by line and column. */
  public List<Problem> problems() {
    return problems;
  }

  private static String render(List<Problem> problems) {
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a document exception needs at least one problem");
    }
    return problems.stream()
        .sorted(FILE_ORDER)
        .map(Problem::toString)
        .collect(Collectors.joining("\n"));
  }
}
