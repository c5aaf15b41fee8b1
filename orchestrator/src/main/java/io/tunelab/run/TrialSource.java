package io.tunelab.run;

import io.tunelab.store.TrialRef;
import java.util.List;

/**
 * Where a pass's trials come from: a stored plan all at once, or a search a round at a time, each
 * round drawn from what the rounds before it measured.
 */
interface TrialSource {
  /**
   * The next trials to run, stored and in run order; empty when there are no more. Asked again only
   * after every trial it gave before has ended.
   */
  List<TrialRef> next();

  /** How many trials the pass runs at most, given how many of the first batch will run. */
  default int total(int firstBatch) {
    return firstBatch;
  }

  /** The trials of a stored plan, in one batch. */
  static TrialSource of(List<TrialRef> trials) {
    return new TrialSource() {
      private boolean given;

      @Override
      public List<TrialRef> next() {
        if (given) {
          return List.of();
        }
        given = true;
        return trials;
      }
    };
  }
}
