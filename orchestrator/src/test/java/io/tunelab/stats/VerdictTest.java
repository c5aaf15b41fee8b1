package io.tunelab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class VerdictTest {
  private static final Direction UP = Direction.HIGHER_IS_BETTER;

  @Test
  void aChangeIsSignificantAndAtLeastTheMinimum() {
    assertEquals(Verdict.SAME, Verdict.of(false, true, 1.0, 2, UP));
    assertEquals(Verdict.BETTER, Verdict.of(false, true, 2.0, 2, UP));
    assertEquals(Verdict.BETTER, Verdict.of(false, true, 11.0, 2, UP));
    assertEquals(Verdict.WORSE, Verdict.of(false, true, -11.0, 2, UP));
    assertEquals(Verdict.BETTER, Verdict.of(false, true, -11.0, 2, Direction.LOWER_IS_BETTER));
    assertEquals(Verdict.CHANGED, Verdict.of(false, true, -11.0, 2, Direction.UNKNOWN));
  }

  @Test
  void aLargeChangeTheTestCannotTellFromNoiseIsTheSame() {
    assertEquals(Verdict.SAME, Verdict.of(false, false, 40.0, 2, UP));
    assertEquals(Verdict.SAME, Verdict.of(false, true, Double.NaN, 0, UP));
  }

  @Test
  void tooFewRepetitionsGetNoVerdict() {
    assertEquals(Verdict.UNTESTED, Verdict.of(true, true, 40.0, 2, UP));
    assertEquals("n<3", Verdict.UNTESTED.text());
  }
}
