package io.tunelab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tunelab.agent.Health;
import io.tunelab.store.TrialFlag;
import io.tunelab.workload.Transfer;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class HealthFlagsTest {
  private static final Health BEFORE =
      new Health(
          "boot-a", "kmsg:10", 5, 7, 0, "cpu0,cpu1 schedutil 800000-3000000", 0, 0, 0, List.of());

  private static Health after(
      String boot, long in, long out, long throttle, String cpufreq, int lines, String... first) {
    return new Health(boot, "kmsg:20", in, out, throttle, cpufreq, 0, 0, lines, List.of(first));
  }

  static Stream<Arguments> snapshots() {
    String freq = BEFORE.cpufreq();
    return Stream.of(
        Arguments.of("nothing changed", after("boot-a", 5, 7, 0, freq, 0), List.of()),
        Arguments.of(
            "kernel lines",
            after("boot-a", 5, 7, 0, freq, 2, "EXT4-fs warning", "hung task"),
            List.of("dmesg: EXT4-fs warning\nhung task")),
        Arguments.of(
            "more lines than kept",
            after("boot-a", 5, 7, 0, freq, 7, "one", "two"),
            List.of("dmesg: one\ntwo\n… and 5 more lines")),
        Arguments.of(
            "swapped out",
            after("boot-a", 5, 9, 0, freq, 0),
            List.of("swap: pswpin +0, pswpout +2")),
        Arguments.of(
            "throttled",
            after("boot-a", 5, 7, 3, freq, 0),
            List.of("throttle: thermal throttle counters +3")),
        Arguments.of(
            "a counter not reported after", after("boot-a", -1, -1, -1, freq, 0), List.of()),
        Arguments.of(
            "governor changed",
            after("boot-a", 5, 7, 0, "cpu0,cpu1 powersave 800000-3000000", 0),
            List.of(
                "cpufreq: before: cpu0,cpu1 schedutil 800000-3000000;"
                    + " after: cpu0,cpu1 powersave 800000-3000000")),
        Arguments.of(
            "rebooted: the counters started again, only the reboot counts",
            after("boot-b", 0, 0, 0, "", 3, "a"),
            List.of("reboot: boot id boot-a -> boot-b")),
        Arguments.of(
            "several at once",
            after("boot-a", 6, 7, 1, freq, 1, "x"),
            List.of(
                "dmesg: x",
                "swap: pswpin +1, pswpout +0",
                "throttle: thermal throttle counters +1")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("snapshots")
  void flagsWhatChanged(String what, Health after, List<String> expected) {
    List<String> flags =
        HealthFlags.of("client", BEFORE, after).stream()
            .peek(f -> assertEquals("client", f.host()))
            .map(f -> f.flag() + ": " + f.detail())
            .toList();
    assertEquals(expected, flags, what);
  }

  private static final long MIB = 1 << 20;

  /** A host's figures with only its block devices' bytes read and written since boot. */
  private static Health disks(String boot, long read, long written) {
    return new Health(boot, null, 0, 0, -1, "", read, written, 0, List.of());
  }

  static Stream<Arguments> transfers() {
    Map<String, Health> before =
        Map.of("client", disks("boot-c", 100 * MIB, 10 * MIB), "server", disks("boot-s", 0, 0));
    return Stream.of(
        Arguments.of(
            "a read the page cache served",
            Map.of("client", new Transfer(32 * MIB, 0)),
            before,
            Map.of(
                "client", disks("boot-c", 100 * MIB + 4096, 10 * MIB),
                "server", disks("boot-s", 0, 0)),
            List.of(
                "client cache: reads: workload 32 MiB (client 32 MiB), block devices 4 KiB"
                    + " (client 4 KiB, server 0 B), 0.0% of it, under 50%")),
        Arguments.of(
            "a read the disks served",
            Map.of("client", new Transfer(32 * MIB, 0)),
            before,
            Map.of("client", disks("boot-c", 132 * MIB, 10 * MIB), "server", disks("boot-s", 0, 0)),
            List.of()),
        Arguments.of(
            "a client's read an iSCSI server's disks served",
            Map.of("client", new Transfer(32 * MIB, 0)),
            before,
            Map.of(
                "client", disks("boot-c", 100 * MIB, 10 * MIB),
                "server", disks("boot-s", 20 * MIB, 0)),
            List.of()),
        Arguments.of(
            "a buffered write still in the page cache; the read side moved nothing",
            Map.of("client", new Transfer(0, 64 * MIB)),
            before,
            Map.of("client", disks("boot-c", 100 * MIB, 12 * MIB), "server", disks("boot-s", 0, 0)),
            List.of(
                "client cache: writes: workload 64 MiB (client 64 MiB), block devices 2 MiB"
                    + " (client 2 MiB, server 0 B), 3.1% of it, under 50%")),
        Arguments.of(
            "a host that rebooted: its counters started again",
            Map.of("client", new Transfer(32 * MIB, 0)),
            before,
            Map.of("client", disks("boot-x", 0, 0), "server", disks("boot-s", 0, 0)),
            List.of()),
        Arguments.of(
            "a host that does not report its devices",
            Map.of("client", new Transfer(32 * MIB, 0)),
            before,
            Map.of(
                "client", disks("boot-c", 100 * MIB, 10 * MIB), "server", disks("boot-s", -1, -1)),
            List.of()),
        Arguments.of(
            "a workload that says nothing of its bytes",
            Map.of(),
            before,
            Map.of("client", disks("boot-c", 100 * MIB, 10 * MIB), "server", disks("boot-s", 0, 0)),
            List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("transfers")
  void cacheFlagsATrialWhoseDevicesMovedUnderHalfOfTheWorkloadsBytes(
      String what,
      Map<String, Transfer> workload,
      Map<String, Health> before,
      Map<String, Health> after,
      List<String> expected) {
    Map<String, Health> ordered = new TreeMap<>(before);
    List<String> flags =
        HealthFlags.cache(0.5, workload, ordered, new TreeMap<>(after)).stream()
            .peek(f -> assertEquals(TrialFlag.CACHE, f.flag()))
            .map(f -> f.host() + " cache: " + f.detail())
            .toList();
    assertEquals(expected, flags, what);
  }

  @ParameterizedTest(name = "threshold {0}")
  @ValueSource(doubles = {0, 0.02})
  void aLowerThresholdFlagsLess(double threshold) {
    Map<String, Health> before = Map.of("local", disks("b", 0, 0));
    Map<String, Health> after = Map.of("local", disks("b", MIB, 0));

    List<TrialFlag> flags =
        HealthFlags.cache(threshold, Map.of("local", new Transfer(32 * MIB, 0)), before, after);

    assertEquals(0, flags.size(), flags.toString());
    assertEquals(
        1,
        HealthFlags.cache(0.5, Map.of("local", new Transfer(32 * MIB, 0)), before, after).size());
  }

  @ParameterizedTest(name = "{1} -> {2}")
  @MethodSource("knobs")
  void knobDrift(String knob, String applied, String after, String expected) {
    TrialFlag flag = HealthFlags.drift("server", knob, applied, after);
    if (expected == null) {
      assertNull(flag);
    } else {
      assertEquals(new TrialFlag("server", TrialFlag.KNOB_DRIFT, expected), flag);
    }
  }

  static Stream<Arguments> knobs() {
    return Stream.of(
        Arguments.of("read_ahead_kb", "256", "256", null),
        Arguments.of(
            "read_ahead_kb", "256", "4096", "read_ahead_kb applied 256, read 4096 after the trial"),
        Arguments.of(
            "scheduler",
            "none",
            null,
            "scheduler applied none, read nothing (gone) after the trial"),
        Arguments.of("unread", null, "1", null));
  }
}
