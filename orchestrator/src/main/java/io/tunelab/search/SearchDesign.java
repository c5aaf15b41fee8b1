package io.tunelab.search;

import io.tunelab.matrix.Search;

/** The {@link Rounds} of a matrix's {@code search.method}. */
public final class SearchDesign {
  private SearchDesign() {}

  /**
   * A race or a screen over {@code space}.
   *
   * @throws IllegalArgumentException when a screen's design does not fit the space or budget
   */
  public static Rounds of(Search search, Space space, long seed) {
    return search.method() == Search.Method.SCREEN
        ? new Screen(space, seed, search.maximize(), search.raceBudget())
        : new Race(space, seed, search.maximize(), search.raceBudget());
  }
}
