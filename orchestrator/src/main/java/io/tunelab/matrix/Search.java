package io.tunelab.matrix;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A matrix's {@code search:}: instead of every cell, the best one for an objective, found by racing
 * candidates within a budget of trials and confirmed against the hosts' own settings.
 *
 * @param job the objective's job ({@code all}, the aggregate, unless written {@code JOB.METRIC})
 * @param metric the objective's metric, e.g. {@code mib_per_s}
 * @param maximize whether more is better
 * @param budget trials at most, the confirmation's included
 * @param confirm trials each of the winner and of {@code default}, interleaved
 * @param method how the candidates are chosen
 * @param levels a screen's two levels of an axis, by the axis's name as written, where {@code
 *     search.levels} gives them instead of its first and last value
 */
public record Search(
    String job,
    String metric,
    boolean maximize,
    int budget,
    int confirm,
    Method method,
    Map<String, List<String>> levels) {
  /** The confirmation's trials per side when the matrix gives no {@code confirm}. */
  public static final int DEFAULT_CONFIRM = 5;

  /** {@code search.method}. */
  public enum Method {
    /** Iterated racing: candidates eliminated round by round. */
    RACE,
    /** A two-level design over every axis, replicated; its effects ranked by {@code effects}. */
    SCREEN
  }

  public Search {
    levels = Collections.unmodifiableMap(new LinkedHashMap<>(levels));
  }

  /** A search whose screen, if it is one, takes each axis's first and last value. */
  public Search(
      String job, String metric, boolean maximize, int budget, int confirm, Method method) {
    this(job, metric, maximize, budget, confirm, method, Map.of());
  }

  /** A race. */
  public Search(String job, String metric, boolean maximize, int budget, int confirm) {
    this(job, metric, maximize, budget, confirm, Method.RACE);
  }

  /** The trials the race may spend before its confirmation. */
  public int raceBudget() {
    return budget - 2 * confirm;
  }

  /** The objective as written: {@code maximize mib_per_s}. */
  public String objective() {
    return (maximize ? "maximize " : "minimize ")
        + (job.equals("all") ? metric : job + "." + metric);
  }
}
