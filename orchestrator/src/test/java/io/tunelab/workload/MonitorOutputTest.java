package io.tunelab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tunelab.testing.GoldenFiles;
import io.tunelab.testing.RepoFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Real sysstat 12.6 / procps 4.0 output ({@code workload/monitor/TOOL-Ns-what.out}, captured with
 * {@code LC_ALL=C}) reads as its {@code .rows.txt}: one line per interval row, then the means.
 */
class MonitorOutputTest {

  @TestFactory
  Stream<DynamicTest> capturedMonitorOutputReadsAsItsGolden() {
    return Captures.captures("monitor", ".out").stream()
        .map(
            out ->
                DynamicTest.dynamicTest(
                    out.getFileName().toString(),
                    () -> {
                      String[] name = out.getFileName().toString().split("-");
                      Duration interval = Duration.parse("PT" + name[1].toUpperCase());
                      MonitorOutput parsed =
                          MonitorOutput.parse(name[0], Captures.lines(out), interval);
                      String actual = describe(parsed);
                      Path golden = Captures.sibling(out, ".out", ".rows.txt");
                      assertEquals(GoldenFiles.expected(golden, actual), actual);
                    }));
  }

  @Test
  void vmstatDropsTheSinceBootRowAndAveragesTheRest() {
    List<MonitorMean> means = parse("vmstat", "vmstat-1s-count3.out", 1).means();
    // Rows 2 and 3 of the capture: us 38 and 62, bo 65552 and 65516.
    assertEquals(new MonitorMean("", "us", 50, "%", 2), find(means, "", "us"));
    assertEquals(new MonitorMean("", "bo", 65534, "blocks/s", 2), find(means, "", "bo"));
  }

  @Test
  void iostatRowsArePerDeviceAndInterval() {
    MonitorOutput out = parse("iostat", "iostat-2s-timestamps.out", 2);
    List<MonitorRow> util = out.rows().stream().filter(r -> r.metric().equals("util_pct")).toList();
    assertEquals(
        List.of(
            new MonitorRow(2, "loop0", "util_pct", 0, "%"),
            new MonitorRow(2, "vda", "util_pct", 48.4, "%"),
            new MonitorRow(4, "loop0", "util_pct", 0, "%"),
            new MonitorRow(4, "vda", "util_pct", 45.0, "%")),
        util);
    assertEquals((8210.0 + 7541.0) / 2, find(out.means(), "vda", "r_per_s").value(), 1e-9);
    assertEquals("kB/s", find(out.means(), "vda", "rkb_per_s").unit());
    assertEquals("ms", find(out.means(), "vda", "r_await").unit());
    assertEquals("kB", find(out.means(), "vda", "rareq_sz").unit());
  }

  @Test
  void mpstatKeepsTheAllRowAndSkipsTheAverage() {
    List<MonitorRow> rows = parse("mpstat", "mpstat-1s-stopped.out", 1).rows();
    assertEquals(4 * 10, rows.size());
    assertEquals(new MonitorRow(1, "", "usr_pct", 77.0, "%"), rows.get(0));
    assertEquals(new MonitorRow(4, "", "idle_pct", 0.0, "%"), rows.get(rows.size() - 1));
  }

  @Test
  void mpstatReadsTheTwelveHourClockAndPerCpuRows() {
    // The 24-hour capture re-typed as an en_US locale and `mpstat -P ALL` print it.
    List<String> lines =
        List.of(
            "Linux 6.18.44-fc-v857 (vm) \t11/30/2026 \t_x86_64_\t(2 CPU)",
            "",
            "10:18:20 PM  CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest"
                + "  %gnice   %idle",
            "10:18:21 PM  all   77.00    0.00   16.50    0.00    0.00    6.50    0.00    0.00"
                + "    0.00    0.00",
            "10:18:21 PM    0   80.00    0.00   14.00    0.00    0.00    6.00    0.00    0.00"
                + "    0.00    0.00",
            "",
            "10:18:21 PM  CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest"
                + "  %gnice   %idle",
            "10:18:22 PM  all   69.50    0.00   22.50    0.00    0.00    8.00    0.00    0.00"
                + "    0.00    0.00",
            "Average:     all   73.25    0.00   19.50    0.00    0.00    7.25    0.00    0.00"
                + "    0.00    0.00");
    MonitorOutput out = MonitorOutput.parse("mpstat", lines, Duration.ofSeconds(1));
    assertEquals(new MonitorMean("", "usr_pct", 73.25, "%", 2), find(out.means(), "", "usr_pct"));
    assertEquals(2.0, out.rows().get(out.rows().size() - 1).t());
  }

  @Test
  void vmstatWithoutDashNSkipsRepeatedHeadersAndReadsNewColumns() {
    String banner =
        "procs -----------memory---------- ---swap-- -----io---- -system-- -------cpu-------";
    String header =
        " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st gu";
    List<String> lines =
        List.of(
            banner,
            header,
            " 1  0      0 100 10 20    0    0  9  9  9  9  9  9 80  1  1  0",
            " 2  0      0 100 10 20    0    0  4  8  5  6 10 20 60 10  0  0",
            banner,
            header,
            " 3  1      0 100 10 20    0    0  6  2  5  6 30 10 40 20  0  0");
    MonitorOutput out = MonitorOutput.parse("vmstat", lines, Duration.ofSeconds(5));
    assertEquals(new MonitorMean("", "wa", 15, "%", 2), find(out.means(), "", "wa"));
    assertEquals(new MonitorMean("", "gu", 0, "%", 2), find(out.means(), "", "gu"));
    assertEquals(10.0, out.rows().get(out.rows().size() - 1).t());
  }

  @Test
  void aDecimalCommaReadsAsAPoint() {
    List<String> lines =
        List.of("Device            r/s     rkB/s  %util", "sdb             12,50    400,00  33,30");
    MonitorOutput out = MonitorOutput.parse("iostat", lines, Duration.ofSeconds(1));
    assertEquals(new MonitorRow(1, "sdb", "util_pct", 33.3, "%"), out.rows().get(2));
  }

  @Test
  void columnNamesBecomeMetricNames() {
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("r/s", "r_per_s");
    expected.put("rkB/s", "rkb_per_s");
    expected.put("%rrqm", "rrqm_pct");
    expected.put("r_await", "r_await");
    expected.put("rareq-sz", "rareq_sz");
    expected.put("aqu-sz", "aqu_sz");
    expected.put("%util", "util_pct");
    expected.put("%iowait", "iowait_pct");
    expected.put("us", "us");
    Map<String, String> actual = new LinkedHashMap<>();
    expected.keySet().forEach(c -> actual.put(c, MonitorOutput.metricName(c)));
    assertEquals(expected, actual);
  }

  @Test
  void argvRunsUntilStoppedInTheCLocale() {
    assertEquals(
        List.of("env", "LC_ALL=C", "vmstat", "-n", "2"),
        MonitorOutput.argv("vmstat", Duration.ofSeconds(2), List.of()));
    assertEquals(
        List.of("env", "LC_ALL=C", "iostat", "-dxky", "sdb", "loop3", "1"),
        MonitorOutput.argv("iostat", Duration.ofSeconds(1), List.of("sdb", "loop3")));
    assertEquals(
        List.of("env", "LC_ALL=C", "mpstat", "60"),
        MonitorOutput.argv("mpstat", Duration.ofMinutes(1), List.of()));
    assertThrows(
        IllegalArgumentException.class,
        () -> MonitorOutput.argv("vmstat", Duration.ofMillis(500), List.of()));
    assertThrows(
        IllegalArgumentException.class,
        () -> MonitorOutput.argv("sar", Duration.ofSeconds(1), List.of()));
  }

  private static MonitorOutput parse(String tool, String capture, int seconds) {
    Path p = RepoFiles.testResources("workload/monitor").resolve(capture);
    return MonitorOutput.parse(tool, Captures.lines(p), Duration.ofSeconds(seconds));
  }

  private static MonitorMean find(List<MonitorMean> means, String device, String metric) {
    return means.stream()
        .filter(m -> m.device().equals(device) && m.metric().equals(metric))
        .findFirst()
        .orElseThrow();
  }

  /** One line per (t, device) row with its metrics, then one line per mean. */
  static String describe(MonitorOutput out) {
    Map<String, List<String>> rows = new LinkedHashMap<>();
    for (MonitorRow r : out.rows()) {
      String key = "t=" + Captures.number(r.t()) + (r.device().isEmpty() ? "" : " " + r.device());
      rows.computeIfAbsent(key, k -> new ArrayList<>())
          .add(r.metric() + "=" + Captures.number(r.value()));
    }
    StringBuilder s = new StringBuilder("rows:\n");
    rows.forEach(
        (k, v) -> s.append("  ").append(k).append(' ').append(String.join(" ", v)).append('\n'));
    s.append("means:\n");
    for (MonitorMean m : out.means()) {
      s.append("  ").append(m.device().isEmpty() ? "-" : m.device()).append(' ');
      s.append(m.metric()).append(' ').append(Captures.number(m.value()));
      s.append(' ').append(m.unit().isEmpty() ? "-" : m.unit());
      s.append(" n=").append(m.rows()).append('\n');
    }
    return s.toString();
  }
}
