package io.tunelab.agent;

import java.util.ArrayList;
import java.util.List;

/**
 * What the agent's {@code health} verb reports about a host at one moment: the figures a trial is
 * checked with before and after it (docs/agent.md, "health").
 *
 * @param bootId the host's boot id
 * @param cursor where the kernel log ended, to be handed to the next {@code health}; null when the
 *     host's log is not readable (a non-root agent under {@code kernel.dmesg_restrict})
 * @param pswpin pages swapped in since boot, or -1 when not reported
 * @param pswpout pages swapped out since boot, or -1 when not reported
 * @param throttle the sum of the CPUs' thermal throttle counters, or -1 without any
 * @param cpufreq every CPU's governor and frequency limits, grouped; empty without cpufreq
 * @param diskRead bytes read since boot from the block devices nothing else is built on, or -1 when
 *     not reported
 * @param diskWritten bytes written since boot to those devices, or -1 when not reported
 * @param kernelLines how many lines of level warning or worse the kernel logged after the cursor
 *     asked about (0 without one)
 * @param firstLines the first of those lines, as the kernel logged them
 */
public record Health(
    String bootId,
    String cursor,
    long pswpin,
    long pswpout,
    long throttle,
    String cpufreq,
    long diskRead,
    long diskWritten,
    int kernelLines,
    List<String> firstLines) {

  public Health {
    firstLines = List.copyOf(firstLines);
  }

  static Health from(Answer answer) {
    return from(answer.lines());
  }

  /**
   * The snapshot a trial's answer carries under {@code prefix} ({@code before} or {@code after}),
   * or null when it carries none.
   */
  static Health in(Answer answer, String prefix) {
    String start = prefix + "\t";
    List<String> mine = new ArrayList<>();
    for (String line : answer.lines()) {
      if (line.startsWith(start)) {
        mine.add(line.substring(start.length()));
      }
    }
    return mine.isEmpty() ? null : from(mine);
  }

  private static Health from(List<String> figures) {
    String bootId = "";
    String cursor = null;
    long in = -1;
    long out = -1;
    long throttle = -1;
    String cpufreq = "";
    long read = -1;
    long written = -1;
    int count = 0;
    List<String> lines = new ArrayList<>();
    for (String line : figures) {
      String[] kv = Answer.fields(line, 2);
      switch (kv[0]) {
        case "boot_id" -> bootId = kv[1];
        case "cursor" -> cursor = kv[1].isEmpty() ? null : kv[1];
        case "pswpin" -> in = number(kv[1]);
        case "pswpout" -> out = number(kv[1]);
        case "throttle" -> throttle = number(kv[1]);
        case "cpufreq" -> cpufreq = kv[1];
        case "disk_read" -> read = number(kv[1]);
        case "disk_written" -> written = number(kv[1]);
        case "klines" -> count = (int) Math.max(0, Math.min(Integer.MAX_VALUE, number(kv[1])));
        case "kline" -> lines.add(Answer.relayed(kv[1]));
        default -> {} // a figure a newer agent adds
      }
    }
    return new Health(bootId, cursor, in, out, throttle, cpufreq, read, written, count, lines);
  }

  // Not String.matches: it compiles its pattern on every call, a dozen times a trial.
  private static long number(String text) {
    if (text.isEmpty() || text.length() > 18) {
      return -1;
    }
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return -1;
      }
    }
    return Long.parseLong(text);
  }
}
