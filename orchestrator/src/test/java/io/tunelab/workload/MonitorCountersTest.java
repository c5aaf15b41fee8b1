package io.tunelab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Trial-wide figures from the counters an agent relays: CPU columns from two {@code cpu} lines of
 * /proc/stat, iostat's columns from two reads of /proc/diskstats, each checked against the
 * arithmetic done by hand; and which figure becomes the trial's sample.
 */
class MonitorCountersTest {
  // user nice system idle iowait irq softirq steal guest guest_nice: 0.3 s on 2 CPUs, 60 ticks.
  private static final String CPU_BEGIN =
      "cpu  2743564 2550 358797 1458158 46010 0 14999 76994 0 0";
  private static final String CPU_END = "cpu  2743584 2550 358806 1458180 46016 0 15000 76996 0 0";

  private static MonitorPlan plan(String tool, String... devices) {
    return new MonitorPlan(
        tool,
        "local",
        Duration.ofSeconds(1),
        List.of(devices),
        tool + "@local",
        MonitorOutput.argv(tool, Duration.ofSeconds(1), List.of(devices)));
  }

  private static List<String> counters(
      long beginNs, long endNs, List<String> begin, List<String> end) {
    List<String> lines = new java.util.ArrayList<>();
    lines.add("begin\t" + beginNs);
    lines.addAll(begin);
    lines.add("end\t" + endNs);
    lines.addAll(end);
    return lines;
  }

  private static Map<String, Double> byMetric(List<MonitorMean> means, String device) {
    Map<String, Double> m = new TreeMap<>();
    means.stream()
        .filter(x -> x.device().equals(device))
        .forEach(x -> m.put(x.metric(), x.value()));
    return m;
  }

  @Test
  void vmstatsCpuColumnsArePercentagesOfTheTicksThatPassed() {
    MonitorOutput out =
        MonitorOutput.parse(
            plan("vmstat"),
            List.of(),
            counters(0, 300_000_000L, List.of(CPU_BEGIN), List.of(CPU_END)));
    // 20 + 0 user, 9 + 0 + 1 system, 22 idle, 6 iowait, 2 steal: 60 ticks.
    Map<String, Double> cpu = byMetric(out.means(), "");
    assertEquals(
        Map.of(
            "us",
            100 * 20 / 60.0,
            "sy",
            100 * 10 / 60.0,
            "id",
            100 * 22 / 60.0,
            "wa",
            100 * 6 / 60.0,
            "st",
            100 * 2 / 60.0),
        cpu);
    assertEquals(0, out.rows().size(), "a trial shorter than one interval has no rows");
    assertEquals(new MonitorMean("", "us", 100 * 20 / 60.0, "%", 0), out.means().get(0));
  }

  @Test
  void mpstatLeavesTheGuestOutOfUsr() {
    String begin = "cpu  100 10 50 800 20 5 5 10 30 4";
    String end = "cpu  160 20 70 900 30 5 15 10 60 8";
    // deltas: user 60 (guest 30), nice 10 (gnice 4), system 20, idle 100, iowait 10, irq 0,
    // softirq 10, steal 0: 210 ticks.
    Map<String, Double> cpu =
        byMetric(
            MonitorOutput.parse(
                    plan("mpstat"), List.of(), counters(1, 2, List.of(begin), List.of(end)))
                .means(),
            "");
    assertEquals(100 * 30 / 210.0, cpu.get("usr_pct"), 1e-9);
    assertEquals(100 * 6 / 210.0, cpu.get("nice_pct"), 1e-9);
    assertEquals(100 * 30 / 210.0, cpu.get("guest_pct"), 1e-9);
    assertEquals(100 * 4 / 210.0, cpu.get("gnice_pct"), 1e-9);
    assertEquals(100 * 100 / 210.0, cpu.get("idle_pct"), 1e-9);
    assertEquals(10, cpu.size());
  }

  @Test
  void anOldKernelsShortCpuLineGivesWhatItHas() {
    Map<String, Double> cpu =
        byMetric(
            MonitorOutput.parse(
                    plan("vmstat"),
                    List.of(),
                    counters(1, 2, List.of("cpu 10 0 10 80"), List.of("cpu 20 0 20 160")))
                .means(),
            "");
    assertEquals(Map.of("us", 10.0, "sy", 10.0, "id", 80.0), cpu);
  }

  @Test
  void iostatsColumnsComeFromTheDiskstatsDeltas() {
    // 2 s apart. Reads: 400 done, 100 merged, 6400 sectors, 800 ms; writes: 200, 0, 3200,
    // 1000 ms; 0 in flight; 1500 ms busy, 1800 ms weighted; discards 0; flushes 10 in 50 ms.
    String begin =
        "   7       3 loop3 1000 10 20000 3000 500 5 9000 4000 0 6000 7000 0 0 0 0 20 100";
    String end =
        "   7       3 loop3 1400 110 26400 3800 700 5 12200 5000 0 7500 8800 0 0 0 0 30 150";
    String other = "   8       0 sda 1 0 8 1 0 0 0 0 0 1 1 0 0 0 0 0 0";
    List<MonitorMean> means =
        MonitorOutput.parse(
                plan("iostat", "/dev/loop3"),
                List.of(),
                counters(0, 2_000_000_000L, List.of(begin, other), List.of(end, other)))
            .means();
    Map<String, Double> loop3 = byMetric(means, "loop3");
    assertEquals(200.0, loop3.get("r_per_s"));
    assertEquals(6400 / 2.0 / 2, loop3.get("rkb_per_s"));
    assertEquals(50.0, loop3.get("rrqm_per_s"));
    assertEquals(20.0, loop3.get("rrqm_pct"));
    assertEquals(2.0, loop3.get("r_await"));
    assertEquals(8.0, loop3.get("rareq_sz"));
    assertEquals(100.0, loop3.get("w_per_s"));
    assertEquals(800.0, loop3.get("wkb_per_s"));
    assertEquals(0.0, loop3.get("wrqm_pct"));
    assertEquals(5.0, loop3.get("w_await"));
    assertEquals(8.0, loop3.get("wareq_sz"));
    assertEquals(0.0, loop3.get("d_per_s"));
    assertEquals(5.0, loop3.get("f_per_s"));
    assertEquals(5.0, loop3.get("f_await"));
    assertEquals(0.9, loop3.get("aqu_sz"), 1e-12);
    assertEquals(75.0, loop3.get("util_pct"), 1e-12);
    assertEquals(22, loop3.size(), "sysstat 12's 22 columns");
    assertEquals(Map.of(), byMetric(means, "sda"), "a device iostat was not asked for");
    MonitorMean util = means.stream().filter(m -> m.metric().equals("util_pct")).findFirst().get();
    assertEquals("%", util.unit());
    assertEquals(
        "ms", means.stream().filter(m -> m.metric().equals("r_await")).findFirst().get().unit());
  }

  @Test
  void iostatWithoutDevicesCoversEveryDeviceEverUsed() {
    String used = "   8       0 sda 5 0 40 1 0 0 0 0 0 1 1";
    String unused = "   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0";
    List<MonitorMean> means =
        MonitorOutput.parse(
                plan("iostat"),
                List.of(),
                counters(0, 1_000_000_000L, List.of(used, unused), List.of(used, unused)))
            .means();
    // An eleven-field line (Linux 2.6 to 4.17): no discard or flush columns.
    assertEquals(14, byMetric(means, "sda").size());
    assertEquals(Map.of(), byMetric(means, "loop0"));
  }

  @Test
  void theTrialWideFigureTakesTheIntervalMeansPlaceAndTheRestStay() {
    List<String> vmstat =
        List.of(
            " r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st",
            " 4  0      0 100 10 20    0    0  1  1  1  1 49  7 42  1  1",
            " 2  0      0 100 10 20    0    0  4  8  5  6 10 20 60 10  0",
            " 4  0      0 100 10 20    0    0  4  8  5  6 30 20 40 10  0");
    MonitorOutput out =
        MonitorOutput.parse(
            plan("vmstat"), vmstat, counters(0, 1, List.of(CPU_BEGIN), List.of(CPU_END)));
    List<MonitorMean> means = out.means();
    assertEquals(new MonitorMean("", "r", 3, "", 2), means.get(0), "an interval mean");
    MonitorMean us = means.stream().filter(m -> m.metric().equals("us")).findFirst().get();
    assertEquals(new MonitorMean("", "us", 100 * 20 / 60.0, "%", 0), us);
    assertEquals(
        20.0,
        out.intervalMeans().stream()
            .filter(m -> m.metric().equals("us"))
            .findFirst()
            .get()
            .value());
    assertEquals(17, means.size(), "one figure per column");
  }

  @Test
  void incompleteOrDisorderedCountersAreNone() {
    assertNull(MonitorCounters.parse(List.of("begin\t5", CPU_BEGIN)), "no end");
    assertNull(
        MonitorCounters.parse(List.of("begin\t5", CPU_BEGIN, "end\t4", CPU_END)), "backwards");
    assertNull(MonitorCounters.parse(List.of()));
    assertEquals(
        List.of(),
        MonitorOutput.parse(
                plan("vmstat"), List.of(), counters(0, 1, List.of(CPU_END), List.of(CPU_BEGIN)))
            .trialWide(),
        "counters that went down");
    assertEquals(
        0.25,
        MonitorCounters.parse(counters(1_000_000_000L, 1_250_000_000L, List.of(), List.of()))
            .seconds());
  }
}
