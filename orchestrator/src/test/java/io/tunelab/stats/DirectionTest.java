package io.tunelab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class DirectionTest {
  @Test
  void throughputUpTimeDown() {
    assertEquals(Direction.HIGHER_IS_BETTER, Direction.of("mib_per_s"));
    assertEquals(Direction.HIGHER_IS_BETTER, Direction.of("iops"));
    assertEquals(Direction.HIGHER_IS_BETTER, Direction.of("bw_kib"));
    assertEquals(Direction.HIGHER_IS_BETTER, Direction.of("ops"));
    assertEquals(Direction.HIGHER_IS_BETTER, Direction.of("read_ops"));
    assertEquals(Direction.LOWER_IS_BETTER, Direction.of("seconds"));
    assertEquals(Direction.LOWER_IS_BETTER, Direction.of("clat_p99_usec"));
    assertEquals(Direction.LOWER_IS_BETTER, Direction.of("iowait"));
    assertEquals(Direction.UNKNOWN, Direction.of("context_switches"));
  }

  @Test
  void aDropInThroughputIsWorseARiseInTimeToo() {
    assertEquals(Verdict.WORSE, Direction.HIGHER_IS_BETTER.verdict(-3.2));
    assertEquals(Verdict.BETTER, Direction.HIGHER_IS_BETTER.verdict(79.2));
    assertEquals(Verdict.WORSE, Direction.LOWER_IS_BETTER.verdict(4.0));
    assertEquals(Verdict.BETTER, Direction.LOWER_IS_BETTER.verdict(-4.0));
    assertEquals(Verdict.CHANGED, Direction.UNKNOWN.verdict(-4.0));
  }

  @Test
  void changesAndTheirGeometricMean() {
    assertEquals(79.2, Change.percent(42.19, 75.6), 0.05);
    assertEquals(Double.NaN, Change.percent(0, 1));
    // A halving and a doubling cancel out.
    assertEquals(1.0, Change.geometricMean(List.of(0.5, 2.0)), 1e-12);
    assertEquals(Double.NaN, Change.geometricMean(List.of(1.0, 0.0)));
    assertEquals(Double.NaN, Change.geometricMean(List.of()));
  }
}
