package io.tunelab.matrix;

import java.util.ArrayList;
import java.util.List;

/** Collects the problems of one load so that the user sees all of them at once. */
final class Problems {
  private final List<Problem> found = new ArrayList<>();

  void add(Position where, String key, String message) {
    // One line per problem, even when a quoted YAML key holds a line break.
    found.add(new Problem(where, ValueRules.printable(key), ValueRules.printable(message)));
  }

  boolean isEmpty() {
    return found.isEmpty();
  }

  int size() {
    return found.size();
  }

  void throwIfAny() {
    if (!found.isEmpty()) {
      throw new MatrixException(found);
    }
  }
}
