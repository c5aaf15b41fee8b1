package io.tunelab.matrix;

import io.tunelab.yaml.DocumentException;
import io.tunelab.yaml.Problem;
import java.util.List;

/** A matrix that cannot be used, with every problem found, one line each, in file order. */
public final class MatrixException extends DocumentException {
  /** Problems at the same position keep the order given. */
  public MatrixException(List<Problem> problems) {
    super(problems);
  }

  public MatrixException(Problem problem) {
    this(List.of(problem));
  }
}
