package io.tunelab.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Welch's t-test against an independent implementation. The expected values come from SciPy 1.17.1,
 * {@code scipy.stats.ttest_ind(new, base, equal_var=False)} and its {@code
 * confidence_interval(0.95)}, printed with 15 significant digits; the first two data sets are the
 * worked examples of the Wikipedia article "Welch's t-test" (which rounds them to t = 2.46, df =
 * 25.0, p = 0.021 and t = 1.57, df = 9.9, p = 0.149).
 */
class WelchTest {
  private static final double[] WIKI1_A = {
    27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4
  };
  private static final double[] WIKI1_B = {
    27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4
  };
  private static final double[] WIKI2_A = {
    17.2, 20.9, 22.6, 18.1, 21.7, 21.4, 23.5, 24.2, 14.7, 21.8
  };
  private static final double[] WIKI2_B = {
    21.5, 22.8, 21.0, 23.0, 21.6, 23.6, 22.5, 20.7, 23.4, 21.8, 20.7, 21.7, 21.5, 22.5, 23.6, 21.5,
    22.5, 23.5, 21.5, 21.8
  };

  private static Welch test(double[] base, double[] next) {
    return Welch.test(Summary.of(base), Summary.of(next), 0.95);
  }

  @Test
  void wikipediaExampleOneEqualSizes() {
    Welch w = test(WIKI1_A, WIKI1_B);

    assertEquals(2.45535639828601, w.t(), 1e-12);
    assertEquals(24.9885292902314, w.df(), 1e-10);
    assertEquals(0.021378001462867, w.p(), 1e-12);
    assertEquals(0.3492370661924069, w.interval().low(), 1e-8);
    assertEquals(3.984096267140929, w.interval().high(), 1e-8);
  }

  @Test
  void wikipediaExampleTwoUnequalSizesAndVariances() {
    Welch w = test(WIKI2_A, WIKI2_B);

    assertEquals(1.5654335235985, w.t(), 1e-12);
    assertEquals(9.90474124865083, w.df(), 1e-10);
    assertEquals(0.148841696605328, w.p(), 1e-12);
    assertEquals(-0.6484213253751658, w.interval().low(), 1e-8);
    assertEquals(3.698421325375163, w.interval().high(), 1e-8);
  }

  @Test
  void designExampleReadsAgainstTwoMiBReadAhead() {
    double gib = 1024.0 * 1024 * 1024;
    double[] base = {gib / 16.067 / 1048576, gib / 16.883 / 1048576, gib / 16.096 / 1048576};
    double[] next = {gib / 9.213 / 1048576, gib / 9.101 / 1048576, gib / 9.344 / 1048576};

    Welch w = test(base, next);

    assertEquals(36.7994969558212, w.t(), 1e-10);
    assertEquals(3.88185597098545, w.df(), 1e-10);
    assertEquals(4.39184478077185e-06, w.p(), 1e-15);
    assertEquals(44.71863441638716, w.interval().low(), 1e-7);
    assertEquals(52.11290276461821, w.interval().high(), 1e-7);
  }

  @Test
  void tinyPValuesKeepTheirPrecision() {
    Welch w =
        test(new double[] {100.0, 100.1, 99.9, 100.05}, new double[] {110.0, 110.1, 109.9, 110.02});

    assertEquals(168.553290143683, w.t(), 1e-9);
    assertEquals(5.99164402874729, w.df(), 1e-9);
    assertEquals(3.0371083820195e-12, w.p(), 1e-17);
  }

  @Test
  void theTestIsSymmetric() {
    Welch ab = test(WIKI1_A, WIKI1_B);
    Welch ba = test(WIKI1_B, WIKI1_A);

    assertEquals(-ab.t(), ba.t(), 1e-12);
    assertEquals(ab.p(), ba.p(), 1e-15);
  }

  @Test
  void withoutSpreadTheTestDegenerates() {
    Welch same = test(new double[] {5, 5, 5}, new double[] {5, 5, 5});
    Welch apart = test(new double[] {5, 5, 5}, new double[] {6, 6, 6});

    assertEquals(1, same.p());
    assertEquals(0, same.t());
    assertEquals(0, apart.p());
    assertTrue(Double.isInfinite(apart.t()) && apart.t() > 0);
    assertEquals(1, apart.interval().low());
  }

  @Test
  void needsTwoValuesOnEachSide() {
    Summary one = Summary.of(new double[] {1});
    Summary two = Summary.of(new double[] {1, 2});

    assertEquals(false, Welch.applicable(one, two));
    assertEquals(true, Welch.applicable(two, two));
    assertThrows(IllegalArgumentException.class, () -> Welch.test(one, two, 0.95));
  }
}
