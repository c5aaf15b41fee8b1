package io.tunelab.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.store.TrialRef;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqliteExperimentsTest {
  @Test
  void aPageOfTrialsIsAddedInSeqOrderWhateverOrderItCameIn() {
    TrialRefs refs = new TrialRefs();
    // id cell ordinal rep seq warmup
    SqliteExperiments.addTrials(refs, "7 3 2 0 9 0 5 4 3 1 -2 1 6 3 2 1 4 0", 3);
    assertEquals(
        List.of(
            new TrialRef(5, 4, 3, 1, -2, true),
            new TrialRef(6, 3, 2, 1, 4, false),
            new TrialRef(7, 3, 2, 0, 9, false)),
        refs);
  }

  @Test
  void aPageInSeqOrderKeepsIt() {
    TrialRefs refs = new TrialRefs();
    SqliteExperiments.addTrials(refs, "1 1 1 0 1 0 2 1 1 1 2 0", 2);
    assertEquals(
        List.of(new TrialRef(1, 1, 1, 0, 1, false), new TrialRef(2, 1, 1, 1, 2, false)), refs);
  }
}
