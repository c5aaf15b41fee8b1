package io.tunelab.search;

import java.util.List;
import java.util.Map;

/**
 * A search decided round by round: from every round measured so far, the next round's cells, or the
 * end and its winner. Deterministic for its seed: the same rounds give the same answer, so a run
 * resumed after kill -9 goes on exactly where it stopped.
 */
public interface Rounds {
  /** What to run next, given every round measured so far, oldest first. */
  Decision next(List<Round> measured);

  /**
   * One round as measured.
   *
   * @param number from 1
   * @param values each cell's objective value in this round, in run order; NaN when its trial
   *     failed or was left out
   */
  record Round(int number, Map<Integer, Double> values) {}

  /**
   * @param cells the next round's cells (ordinals of the space) in run order; empty when the search
   *     is over
   * @param states every candidate's state after the rounds measured: live, eliminated (with why)
   * @param winner the best cell so far (0 before the first round)
   */
  record Decision(List<Integer> cells, List<State> states, int winner) {}

  /**
   * A candidate's state after a round.
   *
   * @param state {@code live}, {@code eliminated} or {@code winner}
   * @param reason why it was eliminated, e.g. "worse than cell 12 over rounds 1–4, p = 0.01"; null
   *     otherwise
   */
  record State(int cell, String state, String reason) {}
}
