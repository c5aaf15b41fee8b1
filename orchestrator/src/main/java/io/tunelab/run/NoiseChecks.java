package io.tunelab.run;

import io.tunelab.agent.NoiseFigures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The noise checks of one host before a run (pyperf's {@code system tune}, krun and BenchExec check
 * the same): each {@code ok}, or a warning with the command that fixes it. A host that has no such
 * setting (no cpufreq, no boost control, no md array) is ok on it.
 */
public final class NoiseChecks {
  /** The load average per CPU above which something else is running. */
  static final double LOAD_PER_CPU = 0.1;

  /** Dirty and writeback pages above this are flushed during the first trials. */
  static final long DIRTY_KB = 64 * 1024;

  /**
   * Daemons that rewrite sysctls, CPU and power settings, or page merging, while a run sets them.
   */
  static final List<String> TUNERS =
      List.of("tuned", "bpftune", "ksmtuned", "thermald", "power-profiles-");

  private NoiseChecks() {}

  /**
   * One check of one host.
   *
   * @param check its name: {@code governor}, {@code boost}, {@code swap}, {@code thp}, {@code ksm},
   *     {@code irqbalance}, {@code tuners}, {@code load}, {@code dirty}, {@code raid}
   * @param fix the command that fixes a warning, null when ok
   */
  public record Check(String host, String check, boolean ok, String detail, String fix) {
    /** {@code ok} or {@code warn}. */
    public String status() {
      return ok ? "ok" : "warn";
    }
  }

  /** Every check of {@code host}, in a fixed order. */
  public static List<Check> of(String host, NoiseFigures f) {
    List<Check> checks = new ArrayList<>();
    checks.add(governor(host, f));
    checks.add(boost(host, f));
    checks.add(
        f.swapKb() > 0
            ? warn(host, "swap", "swap on (" + f.swapKb() + " kB): a trial may swap", "swapoff -a")
            : ok(host, "swap", f.swapKb() < 0 ? "no /proc/meminfo figure" : "no swap"));
    checks.add(thp(host, f));
    checks.add(
        "1".equals(f.ksm())
            ? warn(
                host,
                "ksm",
                "KSM merges pages while the workload runs",
                "echo 0 > /sys/kernel/mm/ksm/run")
            : ok(host, "ksm", f.ksm() == null ? "no KSM" : "KSM off"));
    checks.add(irqbalance(host, f));
    checks.add(tuners(host, f));
    checks.add(load(host, f));
    long dirty = Math.max(0, f.dirtyKb()) + Math.max(0, f.writebackKb());
    checks.add(
        dirty > DIRTY_KB
            ? warn(
                host,
                "dirty",
                dirty / 1024 + " MiB dirty or under writeback: the first trials write it back",
                "sync")
            : ok(host, "dirty", dirty / 1024 + " MiB dirty"));
    checks.add(raid(host, f));
    return checks;
  }

  /** The warnings of {@code checks}, one line each: {@code host srv1: swap: …; fix: swapoff -a}. */
  public static List<String> warnings(List<Check> checks) {
    return checks.stream()
        .filter(c -> !c.ok())
        .map(c -> "host " + c.host() + ": " + c.check() + ": " + c.detail() + "; fix: " + c.fix())
        .toList();
  }

  /**
   * The checks as a run records them with the host's facts: {@code noise.CHECK} to {@code ok:
   * DETAIL} or {@code warn: DETAIL; fix: COMMAND}.
   */
  static Map<String, String> facts(List<Check> checks) {
    Map<String, String> facts = new LinkedHashMap<>();
    for (Check c : checks) {
      facts.put(
          "noise." + c.check(),
          c.status() + ": " + c.detail() + (c.ok() ? "" : "; fix: " + c.fix()));
    }
    return facts;
  }

  private static Check governor(String host, NoiseFigures f) {
    if (f.governors().isEmpty()) {
      return ok(host, "governor", "no cpufreq: the frequency is not the kernel's to set");
    }
    if (f.governors().equals(List.of("performance"))) {
      return ok(host, "governor", "performance");
    }
    return warn(
        host,
        "governor",
        "governor " + String.join(", ", f.governors()) + ": the frequency follows the load",
        "for g in /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor;"
            + " do echo performance > $g; done");
  }

  private static Check boost(String host, NoiseFigures f) {
    if ("0".equals(f.noTurbo())) {
      return warn(
          host,
          "boost",
          "turbo boost on: the clock depends on temperature and on the other cores",
          "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo");
    }
    if ("1".equals(f.boost())) {
      return warn(
          host,
          "boost",
          "boost on: the clock depends on temperature and on the other cores",
          "echo 0 > /sys/devices/system/cpu/cpufreq/boost");
    }
    return ok(
        host, "boost", f.noTurbo() == null && f.boost() == null ? "no boost control" : "boost off");
  }

  private static Check thp(String host, NoiseFigures f) {
    if (f.thp() == null) {
      return ok(host, "thp", "no transparent huge pages");
    }
    String mode = f.thp().replaceAll(".*\\[(\\w+)].*", "$1");
    if (mode.equals("always")) {
      return warn(
          host,
          "thp",
          "transparent huge pages always: khugepaged compacts memory while the workload runs",
          "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled");
    }
    return ok(host, "thp", "transparent huge pages " + mode);
  }

  private static Check irqbalance(String host, NoiseFigures f) {
    List<Daemon> running = running(f, List.of("irqbalance"));
    return running.isEmpty()
        ? ok(host, "irqbalance", "not running")
        : warn(
            host,
            "irqbalance",
            shown(running) + " running: interrupts move between CPUs during trials",
            "systemctl stop irqbalance");
  }

  private static Check tuners(String host, NoiseFigures f) {
    List<Daemon> running = running(f, TUNERS);
    if (running.isEmpty()) {
      return ok(host, "tuners", "none of " + String.join(", ", TUNERS) + " running");
    }
    return warn(
        host,
        "tuners",
        shown(running) + " running: it may rewrite what the matrix sets",
        "systemctl stop "
            + String.join(" ", running.stream().map(Daemon::name).distinct().toList())
            + " (or kill "
            + String.join(" ", running.stream().map(Daemon::pid).toList())
            + ")");
  }

  /** A running daemon, as the agent names it ({@code NAME PID}). */
  private record Daemon(String name, String pid) {}

  /** The daemons of {@code names} running. */
  private static List<Daemon> running(NoiseFigures f, List<String> names) {
    return f.daemons().stream()
        .map(d -> new Daemon(d.substring(0, d.indexOf(' ')), d.substring(d.indexOf(' ') + 1)))
        .filter(d -> names.contains(d.name()))
        .toList();
  }

  /** {@code bpftune (pid 123), tuned (pid 9)}. */
  private static String shown(List<Daemon> daemons) {
    return String.join(
        ", ", daemons.stream().map(d -> d.name() + " (pid " + d.pid() + ")").toList());
  }

  private static Check load(String host, NoiseFigures f) {
    if (f.loadavg() < 0 || f.cpus() <= 0) {
      return ok(host, "load", "no load average");
    }
    String load = String.format(Locale.ROOT, "load %.2f on %d CPUs", f.loadavg(), f.cpus());
    if (f.loadavg() > LOAD_PER_CPU * f.cpus()) {
      return warn(
          host,
          "load",
          load + ": something else is running",
          "top -b -n 1 -o %CPU | head -n 20 (and stop what it shows)");
    }
    return ok(host, "load", load);
  }

  private static Check raid(String host, NoiseFigures f) {
    if (f.busyArrays().isEmpty()) {
      return ok(host, "raid", "no md array resyncing");
    }
    String first = f.busyArrays().get(0);
    return warn(
        host,
        "raid",
        String.join(", ", f.busyArrays()) + ": the array's disks are busy",
        "echo idle > /sys/block/"
            + first.substring(0, first.indexOf(' '))
            + "/md/sync_action"
            + " (or wait for it to finish)");
  }

  private static Check ok(String host, String check, String detail) {
    return new Check(host, check, true, detail, null);
  }

  private static Check warn(String host, String check, String detail, String fix) {
    return new Check(host, check, false, detail, fix);
  }
}
