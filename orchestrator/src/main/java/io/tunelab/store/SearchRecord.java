package io.tunelab.store;

import java.util.List;

/**
 * A search as stored, read at one point in time: every finished trial's value of the objective, in
 * run order, and each candidate's state after each round (table {@code search_rounds}).
 *
 * @param trials ok and failed trials, warm-ups left out; NaN where the statistics leave one out
 * @param rounds by round, then cell; empty for an experiment that is not a search
 */
public record SearchRecord(List<TrialValue> trials, List<Round> rounds) {
  public SearchRecord {
    trials = List.copyOf(trials);
    rounds = List.copyOf(rounds);
  }

  /** A candidate's state after {@code round}. */
  public record Round(int round, SearchState state) {}
}
