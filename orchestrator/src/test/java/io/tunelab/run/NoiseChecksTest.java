package io.tunelab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.agent.NoiseFigures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NoiseChecksTest {
  /** A quiet host: one governor, no boost, THP on request, nothing else running; swap as given. */
  private static NoiseFigures quiet(long swapKb) {
    return new NoiseFigures(
        8,
        List.of("performance"),
        "1",
        null,
        "always [madvise] never",
        "0",
        0.05,
        swapKb,
        1024,
        0,
        List.of(),
        List.of());
  }

  private static List<String> shown(NoiseFigures f) {
    return NoiseChecks.of("srv1", f).stream()
        .map(
            c ->
                c.host()
                    + " "
                    + c.check()
                    + " "
                    + c.status()
                    + ": "
                    + c.detail()
                    + (c.ok() ? "" : " | fix: " + c.fix()))
        .toList();
  }

  @Test
  void aQuietHostIsOkOnEveryCheck() {
    assertEquals(
        List.of(
            "srv1 governor ok: performance",
            "srv1 boost ok: boost off",
            "srv1 swap ok: no swap",
            "srv1 thp ok: transparent huge pages madvise",
            "srv1 ksm ok: KSM off",
            "srv1 irqbalance ok: not running",
            "srv1 tuners ok: none of tuned, bpftune, ksmtuned, thermald, power-profiles- running",
            "srv1 load ok: load 0.05 on 8 CPUs",
            "srv1 dirty ok: 1 MiB dirty",
            "srv1 raid ok: no md array resyncing"),
        shown(quiet(0)));
  }

  @Test
  void aNoisyHostWarnsOnEveryCheckWithItsFix() {
    NoiseFigures noisy =
        new NoiseFigures(
            2,
            List.of("schedutil", "powersave"),
            "0",
            null,
            "[always] madvise never",
            "1",
            1.5,
            2097148,
            70000,
            1000,
            List.of("irqbalance 812", "tuned 901", "bpftune 1234"),
            List.of("md0 resync"));

    assertEquals(
        List.of(
            "srv1 governor warn: governor schedutil, powersave: the frequency follows the load"
                + " | fix: for g in /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor;"
                + " do echo performance > $g; done",
            "srv1 boost warn: turbo boost on: the clock depends on temperature and on the other"
                + " cores | fix: echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo",
            "srv1 swap warn: swap on (2097148 kB): a trial may swap | fix: swapoff -a",
            "srv1 thp warn: transparent huge pages always: khugepaged compacts memory while the"
                + " workload runs | fix: echo madvise >"
                + " /sys/kernel/mm/transparent_hugepage/enabled",
            "srv1 ksm warn: KSM merges pages while the workload runs"
                + " | fix: echo 0 > /sys/kernel/mm/ksm/run",
            "srv1 irqbalance warn: irqbalance (pid 812) running: interrupts move between CPUs"
                + " during trials | fix: systemctl stop irqbalance",
            "srv1 tuners warn: tuned (pid 901), bpftune (pid 1234) running: it may rewrite what"
                + " the matrix sets | fix: systemctl stop tuned bpftune (or kill 901 1234)",
            "srv1 load warn: load 1.50 on 2 CPUs: something else is running"
                + " | fix: top -b -n 1 -o %CPU | head -n 20 (and stop what it shows)",
            "srv1 dirty warn: 69 MiB dirty or under writeback: the first trials write it back"
                + " | fix: sync",
            "srv1 raid warn: md0 resync: the array's disks are busy"
                + " | fix: echo idle > /sys/block/md0/md/sync_action (or wait for it to finish)"),
        shown(noisy));
  }

  @Test
  void aHostWithoutTheSettingsIsOkOnThem() {
    NoiseFigures bare =
        new NoiseFigures(4, List.of(), null, "0", null, null, -1, -1, -1, -1, List.of(), List.of());

    assertEquals(
        List.of(
            "srv1 governor ok: no cpufreq: the frequency is not the kernel's to set",
            "srv1 boost ok: boost off",
            "srv1 swap ok: no /proc/meminfo figure",
            "srv1 thp ok: no transparent huge pages",
            "srv1 ksm ok: no KSM",
            "srv1 irqbalance ok: not running",
            "srv1 tuners ok: none of tuned, bpftune, ksmtuned, thermald, power-profiles- running",
            "srv1 load ok: no load average",
            "srv1 dirty ok: 0 MiB dirty",
            "srv1 raid ok: no md array resyncing"),
        shown(bare));
  }

  @Test
  void warningsAndFactsSayTheSame() {
    List<NoiseChecks.Check> checks = NoiseChecks.of("srv1", quiet(1024));

    assertEquals(
        List.of("host srv1: swap: swap on (1024 kB): a trial may swap; fix: swapoff -a"),
        NoiseChecks.warnings(checks));
    Map<String, String> facts = NoiseChecks.facts(checks);
    assertEquals(
        "warn: swap on (1024 kB): a trial may swap; fix: swapoff -a", facts.get("noise.swap"));
    assertEquals("ok: performance", facts.get("noise.governor"));
    assertEquals(10, facts.size());
  }
}
