package io.tunelab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.GoldenFiles;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every {@code workload/metrics/*.stdout} reads as its {@code .metrics.txt}. */
class MetricsOutputTest {

  @TestFactory
  Stream<DynamicTest> stdoutReadsAsItsGolden() {
    return Captures.captures("metrics", ".stdout").stream()
        .map(
            stdout ->
                DynamicTest.dynamicTest(
                    stdout.getFileName().toString(),
                    () -> {
                      String actual = describe(MetricsOutput.parse(Captures.lines(stdout)));
                      Path golden = Captures.sibling(stdout, ".stdout", ".metrics.txt");
                      assertEquals(GoldenFiles.expected(golden, actual), actual);
                    }));
  }

  @Test
  void readsNameValueAndOptionalUnit() {
    MetricsOutput out =
        MetricsOutput.parse(List.of("read_iops 1520.5 IO/s", "  elapsed_ms 1.2e3  ", "n 7"));
    assertEquals(
        List.of(
            new ParsedMetric("read_iops", 1520.5, "IO/s"),
            new ParsedMetric("elapsed_ms", 1200, ""),
            new ParsedMetric("n", 7, "")),
        out.metrics());
    assertTrue(out.found());
  }

  @Test
  void aNegativeTimeSizeOrRateIsAProblemOtherNegativeMetricsAreNot() {
    assertEquals(
        "parser metrics read seconds -1796088037.704, which cannot be negative",
        MetricsOutput.parse(List.of("bytes 369098752 B", "seconds -1796088037.704 s")).problem());
    assertEquals(
        "parser metrics read iops -1, which cannot be negative",
        MetricsOutput.parse(List.of("iops -1")).problem());
    assertEquals(null, MetricsOutput.parse(List.of("seconds 2.96 s", "offset_us -12.5")).problem());
  }

  @Test
  void ignoresLinesThatAreNotExactlyNameValueUnit() {
    MetricsOutput out =
        MetricsOutput.parse(
            List.of(
                "Read_iops 1",
                "2x 1",
                "iops 1 IO/s extra",
                "iops 12k",
                "iops",
                "iops NaN",
                "a-b 1"));
    assertFalse(out.found());
    assertEquals(
        "parser metrics found no NAME VALUE [UNIT] line; last line read: \"a-b 1\"", out.problem());
  }

  @Test
  void aNameSeenTwiceKeepsItsLastValueAtItsFirstPlace() {
    MetricsOutput out = MetricsOutput.parse(List.of("a 1", "b 2", "a 3"));
    assertEquals(
        List.of(new ParsedMetric("a", 3, ""), new ParsedMetric("b", 2, "")), out.metrics());
  }

  @Test
  void emptyOutputSaysSo() {
    assertEquals(
        "parser metrics found no NAME VALUE [UNIT] line; stdout was empty",
        MetricsOutput.parse(List.of("", "  ")).problem());
  }

  static String describe(MetricsOutput out) {
    StringBuilder s = new StringBuilder();
    if (!out.found()) {
      s.append("problem: ").append(out.problem()).append('\n');
    }
    for (ParsedMetric m : out.metrics()) {
      s.append(m.name()).append(' ').append(Captures.number(m.value()));
      s.append(m.unit().isEmpty() ? "" : " " + m.unit()).append('\n');
    }
    return s.toString();
  }
}
