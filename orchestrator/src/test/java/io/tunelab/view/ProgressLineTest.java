package io.tunelab.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProgressLineTest {
  @Test
  void theBarShowsDoneTotalFailuresElapsedEtaAndTheCurrentTrial() {
    ProgressLine p =
        new ProgressLine(
            7, 18, 1, Duration.ofSeconds(192), Duration.ofSeconds(330), "read_ahead_kb=512 rep 2");

    assertEquals(
        "[#######-------------] 7/18, 1 failed, 3m12s elapsed, eta 5m30s:"
            + " read_ahead_kb=512 rep 2",
        p.bar(120));
  }

  @Test
  void beforeTheFirstTrialEndsTheEtaIsUnknown() {
    ProgressLine p = new ProgressLine(0, 4, 0, Duration.ofSeconds(3), null, "bs=1M rep 1");

    assertEquals("[--------------------] 0/4, 0 failed, 3s elapsed, eta ?: bs=1M rep 1", p.bar(80));
    assertEquals("0 failed, 3s elapsed, eta ?", p.tail());
  }

  @Test
  void theBarNeverWrapsANarrowTerminal() {
    ProgressLine p =
        new ProgressLine(18, 18, 0, Duration.ofHours(10), Duration.ZERO, "x".repeat(200));

    String bar = p.bar(60);

    assertEquals(59, bar.length());
    assertTrue(bar.startsWith("[####################] 18/18, 0 failed, 10h00m elapsed"), bar);
    assertTrue(bar.endsWith("…"), bar);
  }

  @Test
  void theEtaIsTheMeanTrialTimesTheTrialsLeftLessTheCurrentOnesTimeSoFar() {
    // 3 trials took 30 s in all: 10 s each; 5 left, the running one 4 s in.
    assertEquals(
        Duration.ofSeconds(46),
        ProgressLine.eta(Duration.ofSeconds(30), 3, 5, Duration.ofSeconds(4)));
    assertEquals(
        Duration.ZERO, ProgressLine.eta(Duration.ofSeconds(30), 3, 1, Duration.ofSeconds(25)));
    assertNull(ProgressLine.eta(Duration.ZERO, 0, 5, Duration.ZERO));
  }
}
