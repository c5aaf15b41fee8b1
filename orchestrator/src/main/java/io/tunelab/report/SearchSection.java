package io.tunelab.report;

import io.tunelab.matrix.Search;
import io.tunelab.search.Confirmation;
import io.tunelab.search.Effects;
import io.tunelab.store.ReportData;
import io.tunelab.store.SearchRecord;
import io.tunelab.store.SearchState;
import io.tunelab.store.TrialValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a report says of a search besides its cells: the winner and its confirmation, the best mean
 * so far against the trials spent, the candidates eliminated and why, and which axes mattered.
 *
 * <p>Best so far, after each trial of the search (the confirmation's left out): the best mean of
 * the objective among the candidates with at least as many ok values as rounds have ended, and at
 * least one, up to {@value #ENOUGH}: at the end of a round the race names its best by the same
 * rule, and within one a candidate's first value of the round does not raise the bar for the
 * others.
 *
 * @param objective as written: {@code maximize mib_per_s}
 * @param method {@code race} or {@code screen}
 * @param spent the trials run so far (ok or failed), the confirmation's included
 * @param winner the winner, or null before the search named one
 * @param confirmation the winner against default, or null before default ran
 * @param bestSoFar one point per trial of the search, from the first with a value
 * @param checkpoints the points at the end of each round (every few rounds when there are many),
 *     and the last
 * @param eliminated in the order they went out
 * @param effects which axes mattered, over the candidates' values (default left out)
 * @param unit the objective's unit, or null
 */
public record SearchSection(
    String objective,
    String method,
    int budget,
    int spent,
    Candidate winner,
    Confirmation confirmation,
    List<Point> bestSoFar,
    List<Point> checkpoints,
    List<Elimination> eliminated,
    Effects effects,
    String unit) {

  /** The values a candidate needs before its mean can be the best so far (the race's rule). */
  public static final int ENOUGH = 3;

  /** At most about this many checkpoint rows; more rounds are shown every few. */
  static final int MAX_CHECKPOINTS = 12;

  public SearchSection {
    bestSoFar = List.copyOf(bestSoFar);
    checkpoints = List.copyOf(checkpoints);
    eliminated = List.copyOf(eliminated);
  }

  /** A cell and its label. */
  public record Candidate(int ordinal, String label) {}

  /**
   * The best so far after {@code trials} trials of the search, in round {@code round}: cell {@code
   * cell}'s mean of {@code n} values.
   */
  public record Point(int trials, int round, int cell, String label, double mean, int n) {}

  /** A candidate eliminated after {@code round}, and why. */
  public record Elimination(int round, int cell, String label, String reason) {}

  /**
   * The section of a search: {@code data} is its report for the objective's job and metric, {@code
   * record} its trials' values of the objective and its rounds.
   */
  public static SearchSection of(Search search, ReportData data, SearchRecord record) {
    Map<Integer, String> labels = new HashMap<>();
    int defaultCell = 0;
    for (ReportData.Cell c : data.cells()) {
      labels.put(c.ordinal(), c.label());
      if (c.label().equals("default")) {
        defaultCell = c.ordinal();
      }
    }
    Candidate winner = null;
    int winnerRound = 0;
    List<Elimination> eliminated = new ArrayList<>();
    for (SearchRecord.Round r : record.rounds()) {
      SearchState s = r.state();
      if (s.state().equals(SearchState.WINNER)) {
        winner = new Candidate(s.cellOrdinal(), labels.get(s.cellOrdinal()));
        winnerRound = r.round();
      } else if (s.state().equals(SearchState.ELIMINATED)) {
        eliminated.add(
            new Elimination(r.round(), s.cellOrdinal(), labels.get(s.cellOrdinal()), s.reason()));
      }
    }
    Confirmation confirmation = null;
    List<TrialValue> searched = new ArrayList<>();
    int dflt = defaultCell;
    if (dflt > 0 && record.trials().stream().anyMatch(t -> t.cellOrdinal() == dflt)) {
      confirmation =
          Confirmation.of(
              record.trials().stream()
                  .map(t -> new Confirmation.Value(t.cellOrdinal(), t.rep(), t.value()))
                  .toList(),
              dflt,
              search.maximize());
    }
    for (TrialValue t : record.trials()) {
      boolean confirming =
          t.cellOrdinal() == dflt
              || (winner != null && t.cellOrdinal() == winner.ordinal() && t.rep() > winnerRound);
      if (!confirming) {
        searched.add(t);
      }
    }
    List<Point> best = bestSoFar(searched, labels, search.maximize());
    return new SearchSection(
        search.objective(),
        search.method().name().toLowerCase(Locale.ROOT),
        search.budget(),
        record.trials().size(),
        winner,
        confirmation,
        best,
        checkpoints(best),
        eliminated,
        CandidateEffects.of(data, search.metric()),
        data.unit(search.metric()));
  }

  /** The best so far after each trial of {@code searched}, in run order. */
  static List<Point> bestSoFar(
      List<TrialValue> searched, Map<Integer, String> labels, boolean maximize) {
    Map<Integer, double[]> sums = new LinkedHashMap<>();
    List<Point> points = new ArrayList<>();
    int ended = 0;
    for (int i = 0; i < searched.size(); i++) {
      TrialValue t = searched.get(i);
      if (!Double.isNaN(t.value())) {
        double[] s = sums.computeIfAbsent(t.cellOrdinal(), c -> new double[2]);
        s[0] += t.value();
        s[1]++;
      }
      if (i == searched.size() - 1 || searched.get(i + 1).rep() != t.rep()) {
        ended++;
      }
      int enough = Math.max(1, Math.min(ENOUGH, ended));
      int bestCell = 0;
      double bestMean = Double.NaN;
      int bestN = 0;
      for (Map.Entry<Integer, double[]> e : sums.entrySet()) {
        double[] s = e.getValue();
        double mean = s[0] / s[1];
        boolean better =
            bestCell == 0
                || (maximize ? mean > bestMean : mean < bestMean)
                || (mean == bestMean && e.getKey() < bestCell);
        if (s[1] >= enough && better) {
          bestCell = e.getKey();
          bestMean = mean;
          bestN = (int) s[1];
        }
      }
      if (bestCell > 0) {
        points.add(new Point(i + 1, t.rep(), bestCell, labels.get(bestCell), bestMean, bestN));
      }
    }
    return points;
  }

  /**
   * Each round's last point, every few rounds when there are more than {@link #MAX_CHECKPOINTS}.
   */
  static List<Point> checkpoints(List<Point> points) {
    List<Point> ends = new ArrayList<>();
    for (int i = 0; i < points.size(); i++) {
      if (i == points.size() - 1 || points.get(i + 1).round() != points.get(i).round()) {
        ends.add(points.get(i));
      }
    }
    int every = (ends.size() + MAX_CHECKPOINTS - 1) / MAX_CHECKPOINTS;
    if (every <= 1) {
      return ends;
    }
    List<Point> shown = new ArrayList<>();
    for (int i = 0; i < ends.size(); i++) {
      if ((i + 1) % every == 0 || i == ends.size() - 1) {
        shown.add(ends.get(i));
      }
    }
    return shown;
  }
}
