package io.tunelab.store;

import io.tunelab.TunelabException;
import io.tunelab.yaml.DidYouMean;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The jobs of an experiment as messages list them: sorted with process numbers in numeric order,
 * long runs of one job's processes or one monitor's devices shortened, and a guess at what a
 * misspelt or incomplete name meant ({@code vmstat} for {@code vmstat@client}).
 */
public final class JobNames {
  /** A family with more members than this is shown as its first and last member. */
  private static final int RUN = 4;

  // writer.12 → family "writer." number 12; iostat@server:sdb → family "iostat@server:".
  private static final Pattern PROCESS = Pattern.compile("(.+\\.)(\\d+)");
  private static final Pattern DEVICE = Pattern.compile("([^@]+@[^:]+:)(.+)");

  private JobNames() {}

  /**
   * Fails with exit code 2: {@code experiment} has no job {@code asked}; lists the jobs there are
   * and suggests the closest.
   */
  public static TunelabException unknown(
      String experiment, String asked, Collection<String> known) {
    if (known.isEmpty()) {
      return new TunelabException(
          TunelabException.BAD_INPUT,
          experiment + " has no job '" + asked + "': nothing was measured yet");
    }
    return new TunelabException(
        TunelabException.BAD_INPUT,
        experiment
            + " has no job '"
            + asked
            + "' (jobs: "
            + listed(known)
            + ")"
            + hint(asked, known));
  }

  /** The jobs, comma-separated, a long run of one family as {@code writer.0 … writer.111 (112)}. */
  static String listed(Collection<String> jobs) {
    List<String> sorted = new ArrayList<>(jobs);
    sorted.sort(Comparator.comparing(JobNames::family).thenComparing(JobNames::member));
    Map<String, List<String>> families = new LinkedHashMap<>();
    for (String job : sorted) {
      families.computeIfAbsent(family(job), f -> new ArrayList<>()).add(job);
    }
    List<String> parts = new ArrayList<>();
    for (List<String> members : families.values()) {
      if (members.size() > RUN) {
        parts.add(
            members.get(0) + " … " + members.get(members.size() - 1) + " (" + members.size() + ")");
      } else {
        parts.addAll(members);
      }
    }
    return String.join(", ", parts);
  }

  /**
   * {@code "; did you mean 'x'?"}: a job the name begins (a monitor without its role, a job without
   * its process number), else the closest spelling; empty when nothing is close.
   */
  static String hint(String asked, Collection<String> known) {
    for (String job : known) {
      if (job.startsWith(asked + "@") || job.startsWith(asked + ":")) {
        return "; did you mean '" + job + "'?";
      }
    }
    return DidYouMean.hint(asked, known);
  }

  private static String family(String job) {
    Matcher p = PROCESS.matcher(job);
    if (p.matches()) {
      return p.group(1);
    }
    Matcher d = DEVICE.matcher(job);
    return d.matches() ? d.group(1) : job;
  }

  // Process numbers in numeric order (writer.2 before writer.10), devices by name.
  private static String member(String job) {
    Matcher p = PROCESS.matcher(job);
    if (p.matches()) {
      String n = p.group(2);
      return "0".repeat(Math.max(0, 12 - n.length())) + n;
    }
    Matcher d = DEVICE.matcher(job);
    return d.matches() ? d.group(2) : "";
  }
}
