package io.tunelab.search;

import io.tunelab.matrix.Axis;
import io.tunelab.matrix.Search;
import java.util.List;

/** The {@link Rounds} of a matrix's {@code search.method}. */
public final class SearchDesign {
  private SearchDesign() {}

  /**
   * A race or a screen over {@code space}, whose axes are {@code axes}.
   *
   * @throws IllegalArgumentException when a screen's design does not fit the space or budget
   */
  public static Rounds of(Search search, List<Axis> axes, Space space, long seed) {
    return search.method() == Search.Method.SCREEN
        ? Screen.of(search, axes, space, seed)
        : new Race(space, seed, search.maximize(), search.raceBudget());
  }
}
