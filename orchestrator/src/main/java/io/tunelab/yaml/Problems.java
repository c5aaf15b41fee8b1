package io.tunelab.yaml;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Collects the problems of one document so that the user sees all of them at once, and fails with
 * the document's own exception.
 */
public final class Problems {
  private final List<Problem> found = new ArrayList<>();
  private final Function<List<Problem>, ? extends DocumentException> failure;

  /**
   * @param failure builds the exception thrown for this kind of document, e.g. {@code
   *     MatrixException::new}
   */
  public Problems(Function<List<Problem>, ? extends DocumentException> failure) {
    this.failure = failure;
  }

  public void add(Position where, String key, String message) {
    // One line per problem, even when a quoted YAML key holds a line break.
    found.add(new Problem(where, Problem.printable(key), Problem.printable(message)));
  }

  public boolean isEmpty() {
    return found.isEmpty();
  }

  public int size() {
    return found.size();
  }

  /** The exception for {@code problem} alone, for a problem that stops reading at once. */
  public DocumentException failure(Problem problem) {
    return failure.apply(List.of(problem));
  }

  public void throwIfAny() {
    if (!found.isEmpty()) {
      throw failure.apply(List.copyOf(found));
    }
  }
}
