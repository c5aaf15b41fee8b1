package io.tunelab.agent;

import java.util.ArrayList;
import java.util.List;

/**
 * What the agent's {@code noise} verb reports about a host before a run: the figures its noise
 * checks judge (docs/agent.md, "noise"). A text the host did not report is null, a number -1.
 *
 * @param cpus the online CPUs
 * @param governors every CPU's cpufreq governor, each once; empty without cpufreq
 * @param noTurbo intel_pstate's {@code no_turbo}
 * @param boost cpufreq's {@code boost}
 * @param thp {@code transparent_hugepage/enabled}, the one in use in brackets
 * @param ksm {@code ksm/run}
 * @param loadavg the one-minute load average, -1 when not reported
 * @param swapKb {@code SwapTotal}
 * @param dirtyKb {@code Dirty}
 * @param writebackKb {@code Writeback}
 * @param daemons the daemons of the agent's list running, as {@code NAME PID}
 * @param busyArrays the md arrays not idle, as {@code NAME ACTION}
 */
public record NoiseFigures(
    long cpus,
    List<String> governors,
    String noTurbo,
    String boost,
    String thp,
    String ksm,
    double loadavg,
    long swapKb,
    long dirtyKb,
    long writebackKb,
    List<String> daemons,
    List<String> busyArrays) {

  public NoiseFigures {
    governors = List.copyOf(governors);
    daemons = List.copyOf(daemons);
    busyArrays = List.copyOf(busyArrays);
  }

  static NoiseFigures from(Answer answer) {
    long cpus = -1;
    List<String> governors = List.of();
    String noTurbo = null;
    String boost = null;
    String thp = null;
    String ksm = null;
    double load = -1;
    long swap = -1;
    long dirty = -1;
    long writeback = -1;
    List<String> daemons = new ArrayList<>();
    List<String> arrays = new ArrayList<>();
    for (String line : answer.lines()) {
      String[] f = Answer.fields(line, 3);
      switch (f[0]) {
        case "cpus" -> cpus = number(f[1]);
        case "governors" -> governors = f[1].isBlank() ? List.of() : List.of(f[1].split(" "));
        case "no_turbo" -> noTurbo = f[1];
        case "boost" -> boost = f[1];
        case "thp" -> thp = f[1];
        case "ksm" -> ksm = f[1];
        case "loadavg" ->
            load = f[1].matches("[0-9]{1,9}(\\.[0-9]{1,9})?") ? Double.parseDouble(f[1]) : -1;
        case "swap_kb" -> swap = number(f[1]);
        case "dirty_kb" -> dirty = number(f[1]);
        case "writeback_kb" -> writeback = number(f[1]);
        case "daemon" -> daemons.add(f[1] + " " + f[2]);
        case "md" -> arrays.add(f[1] + " " + f[2]);
        default -> {} // a figure a newer agent adds
      }
    }
    return new NoiseFigures(
        cpus, governors, noTurbo, boost, thp, ksm, load, swap, dirty, writeback, daemons, arrays);
  }

  private static long number(String text) {
    return text.matches("[0-9]{1,18}") ? Long.parseLong(text) : -1;
  }
}
