package io.tunelab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.GoldenFiles;
import io.tunelab.testing.RepoFiles;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Real fio 3.33 output ({@code workload/fio/*.stdout}, {@code .stderr} when fio wrote any) reads as
 * its {@code .metrics.txt}; a few values are recomputed by hand from the JSON.
 */
class FioOutputTest {

  @TestFactory
  Stream<DynamicTest> capturedFioOutputReadsAsItsGolden() {
    return Captures.captures("fio", ".stdout").stream()
        .map(
            stdout ->
                DynamicTest.dynamicTest(
                    stdout.getFileName().toString(),
                    () -> {
                      String actual = describe(parse(stdout));
                      Path golden = Captures.sibling(stdout, ".stdout", ".metrics.txt");
                      assertEquals(GoldenFiles.expected(golden, actual), actual);
                    }));
  }

  @Test
  void readBandwidthIsBwBytesOverOneMebibyte() {
    Map<String, Double> m = values(parse(capture("randread-sync")));
    // From the JSON: "bw_bytes" : 54659708, "io_bytes" : 54714368, "iops" : 13344.655345
    assertEquals(54659708 / 1048576.0, m.get("read_mib_per_s"), 1e-9);
    assertEquals(54714368, m.get("read_bytes"));
    assertEquals(13344.655345, m.get("read_iops"), 1e-9);
    // "lat_ns" : { "mean" : 73606.333807 }, clat "99.900000" : 1515520 ns
    assertEquals(73.606333807, m.get("read_lat_mean_us"), 1e-9);
    assertEquals(1515.52, m.get("read_clat_p999_us"), 1e-9);
    assertEquals(3.8, m.get("cpu_usr_pct"), 1e-9);
    assertEquals(34.8, m.get("cpu_sys_pct"), 1e-9);
    assertEquals(m.get("read_mib_per_s"), m.get("mib_per_s"));
    assertFalse(m.containsKey("write_bytes"), "a direction that moved nothing has no metrics");
  }

  @Test
  void twoFioJobsAreSummedWeightedAndTakeTheWorstPercentile() {
    FioOutput out = parse(capture("randrw-numjobs2"));
    Map<String, Double> m = values(out);
    assertEquals(2, out.fioJobs());
    // Job 1 then job 2, read direction, from the JSON.
    assertEquals(47910912.0 + 47181824.0, m.get("read_bytes"));
    assertEquals((47863048.0 + 47134689.0) / 1048576.0, m.get("read_mib_per_s"), 1e-9);
    assertEquals(11685.314685 + 11507.492507, m.get("read_iops"), 1e-6);
    double lat = (64076.260323 * 11697 + 65986.618109 * 11519) / (11697 + 11519) / 1000.0;
    assertEquals(lat, m.get("read_lat_mean_us"), 1e-9);
    assertEquals(Math.max(288768, 321536) / 1000.0, m.get("read_clat_p99_us"), 1e-9);
    assertEquals((0.0 + 2.1) / 2, m.get("cpu_usr_pct"), 1e-9);
    assertEquals(m.get("read_bytes") + m.get("write_bytes"), m.get("bytes"));
    assertEquals(m.get("read_iops") + m.get("write_iops"), m.get("iops"), 1e-9);
  }

  @Test
  void notesBeforeTheJsonAreSkipped() {
    FioOutput out = parse(capture("randread-sync-capped-note"));
    assertFalse(out.failed());
    assertTrue(values(out).get("read_iops") > 0);
  }

  @Test
  void noJsonFailsWithFiosOwnErrorLine() {
    FioOutput out = parse(capture("fail-unknown-option"));
    assertEquals("fio: unrecognized option '--bogus=1'", out.error());
    assertEquals(List.of(), out.metrics());
  }

  @Test
  void aJobErrorInTheJsonFailsWithFiosErrorLine() {
    FioOutput out = parse(capture("fail-not-a-directory"));
    assertEquals(
        "fio: pid=0, err=20/file:filesetup.c:455, func=fstat, error=Not a directory", out.error());
  }

  @Test
  void withoutAnyErrorLineTheFailureSaysWhatIsMissing() {
    assertEquals("fio printed no JSON document", FioOutput.parse(List.of(), List.of()).error());
    FioOutput cut = FioOutput.parse(List.of("{", "  \"fio version\" : \"fio-3.33\","), List.of());
    assertEquals("fio printed no JSON document", cut.error());
    FioOutput quiet =
        FioOutput.parse(
            List.of("{ \"jobs\" : [ { \"jobname\" : \"t\", \"error\" : 5 } ] }"), List.of());
    assertEquals("fio job t failed with error 5", quiet.error());
  }

  private static Path capture(String name) {
    return RepoFiles.testResources("workload/fio").resolve(name + ".stdout");
  }

  private static FioOutput parse(Path stdout) {
    return FioOutput.parse(
        Captures.lines(stdout), Captures.lines(Captures.sibling(stdout, ".stdout", ".stderr")));
  }

  private static Map<String, Double> values(FioOutput out) {
    return out.metrics().stream()
        .collect(Collectors.toMap(ParsedMetric::name, ParsedMetric::value));
  }

  static String describe(FioOutput out) {
    StringBuilder s = new StringBuilder();
    s.append("fio jobs: ").append(out.fioJobs()).append('\n');
    s.append("error: ").append(out.failed() ? out.error() : "-").append('\n');
    for (ParsedMetric m : out.metrics()) {
      s.append(m.name()).append(' ').append(Captures.number(m.value()));
      s.append(' ').append(m.unit()).append('\n');
    }
    return s.toString();
  }
}
