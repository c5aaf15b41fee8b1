package io.tunelab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.matrix.Search;
import io.tunelab.stats.Summary;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Stat;
import io.tunelab.store.ReportData.Trial;
import io.tunelab.store.SearchRecord;
import io.tunelab.store.SearchState;
import io.tunelab.store.TrialCounts;
import io.tunelab.store.TrialStatus;
import io.tunelab.store.TrialValue;
import io.tunelab.testing.GoldenFiles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A search's section of a report: winner, confirmation, best so far, eliminated, axes. */
class SearchSectionTest {
  private static final String RA = "local.block.sdb.read_ahead_kb";
  private static final String SCHED = "local.block.sdb.scheduler";

  /** Cells 1–4 of a race over read-ahead × scheduler, and 5, default. */
  private static final List<Map<String, String>> PARAMS =
      List.of(
          Map.of(RA, "128", SCHED, "none"),
          Map.of(RA, "1024", SCHED, "none"),
          Map.of(RA, "1024", SCHED, "mq-deadline"),
          Map.of(RA, "4096", SCHED, "mq-deadline"),
          Map.of(RA, "4096", SCHED, "mq-deadline"));

  /**
   * Four rounds of cells 1–4 (cell 1 out after round 3, cell 4 failing once), then cell 2 (the
   * winner) against default (5), three trials each, interleaved.
   */
  private static List<TrialValue> trials() {
    List<TrialValue> t = new ArrayList<>();
    double[][] rounds = {
      {100, 200, 190, 150}, {102, 205, 185, 152}, {98, 198, 195, Double.NaN}, {0, 202, 188, 149}
    };
    int[][] order = {{1, 2, 3, 4}, {3, 1, 4, 2}, {2, 4, 1, 3}, {4, 3, 2}};
    for (int r = 0; r < order.length; r++) {
      for (int c : order[r]) {
        t.add(new TrialValue(c, r + 1, rounds[r][c - 1]));
      }
    }
    double[] winner = {201, 199, 203};
    double[] dflt = {150, 148, 153};
    for (int i = 0; i < 3; i++) {
      t.add(new TrialValue(2, 5 + i, winner[i]));
      t.add(new TrialValue(5, 1 + i, dflt[i]));
    }
    return t;
  }

  private static List<SearchRecord.Round> rounds() {
    List<SearchRecord.Round> r = new ArrayList<>();
    for (int round = 1; round <= 4; round++) {
      for (int c = 1; c <= 4; c++) {
        if (c != 1 || round < 3) {
          r.add(new SearchRecord.Round(round, new SearchState(c, SearchState.LIVE, null)));
        }
      }
    }
    r.add(
        new SearchRecord.Round(
            3,
            new SearchState(
                1, SearchState.ELIMINATED, "worse than cell 2 over rounds 1–3, p = 0.004")));
    r.add(new SearchRecord.Round(4, new SearchState(2, SearchState.WINNER, null)));
    return r;
  }

  private static ReportData data(List<TrialValue> values) {
    List<Cell> cells = new ArrayList<>();
    for (int c = 1; c <= PARAMS.size(); c++) {
      int ordinal = c;
      List<Trial> trials = new ArrayList<>();
      for (TrialValue v : values) {
        if (v.cellOrdinal() == ordinal) {
          trials.add(
              Double.isNaN(v.value())
                  ? new Trial(v.rep(), false, TrialStatus.FAILED, "exit 1", Map.of())
                  : new Trial(
                      v.rep(), false, TrialStatus.OK, null, Map.of("mib_per_s", v.value())));
        }
      }
      double[] ok =
          values.stream()
              .filter(v -> v.cellOrdinal() == ordinal && !Double.isNaN(v.value()))
              .mapToDouble(TrialValue::value)
              .toArray();
      Map<String, String> params = new LinkedHashMap<>();
      params.put(RA, PARAMS.get(c - 1).get(RA));
      params.put(SCHED, PARAMS.get(c - 1).get(SCHED));
      String label =
          c == 5
              ? "default"
              : "read_ahead_kb=" + params.get(RA) + "/scheduler=" + params.get(SCHED);
      Map<String, Stat> stats =
          ok.length == 0 ? Map.of() : Map.of("mib_per_s", new Stat("MiB/s", Summary.of(ok)));
      cells.add(new Cell(c, label, params, trials, stats));
    }
    return ReportData.builder(3, "race")
        .status(ExperimentStatus.FINISHED)
        .counts(new TrialCounts(values.size() - 1, 1, 0, 0, 0))
        .job("all", List.of("all"))
        .units(Map.of("mib_per_s", "MiB/s"))
        .paramNames(List.of(RA, SCHED))
        .cells(cells)
        .build();
  }

  private static SearchSection section() {
    Search search = new Search("all", "mib_per_s", true, 30, 3);
    List<TrialValue> t = trials();
    return SearchSection.of(search, data(t), new SearchRecord(t, rounds()));
  }

  private static Report report() {
    List<TrialValue> t = trials();
    return Report.build(data(t), Report.Options.CLASSIC).withSearch(section());
  }

  @Test
  void theBestSoFarCountsOnlyCandidatesWithEnoughValuesAndLeavesTheConfirmationOut() {
    SearchSection s = section();

    assertEquals(new SearchSection.Candidate(2, "read_ahead_kb=1024/scheduler=none"), s.winner());
    assertEquals(15, s.bestSoFar().size(), "the search's 15 trials, not the confirmation's 6");
    assertEquals(21, s.spent());
    // After round 1 every candidate has one value: cell 2's 200 is the best.
    assertEquals(2, s.bestSoFar().get(3).cell());
    // Cell 3's second value, first of round 2, does not raise the bar: cell 2 still leads on one.
    SearchSection.Point early = s.bestSoFar().get(4);
    assertEquals(2, early.cell(), early.toString());
    assertEquals(1, early.n());
    // At the end of round 3 the bar is three values, as the race's.
    assertEquals(List.of(2, 3), List.of(s.bestSoFar().get(11).cell(), s.bestSoFar().get(11).n()));
    assertEquals(List.of(1, 2, 3, 4), s.checkpoints().stream().map(p -> p.round()).toList());
    assertEquals(2, s.checkpoints().get(3).cell());
    assertEquals(1, s.eliminated().size());
    assertEquals(2, s.confirmation().winner());
    assertEquals("better", s.confirmation().verdict().text());
    assertEquals("read_ahead_kb", s.effects().factors().get(0).name());
  }

  @Test
  void aRaceStillRunningHasNoWinnerAndNoConfirmation() {
    Search search = new Search("all", "mib_per_s", true, 30, 3);
    List<TrialValue> t = trials().subList(0, 8);
    List<SearchRecord.Round> r = rounds().stream().filter(x -> x.round() <= 2).toList();
    SearchSection s = SearchSection.of(search, data(t), new SearchRecord(t, r));

    assertNull(s.winner());
    assertNull(s.confirmation());
    String text = TextOutput.search(s);
    assertTrue(text.contains("\nwinner: none yet; best so far cell 2 ("), text);
    assertTrue(text.contains("\nconfirmation: after the search\n"), text);
  }

  @Test
  void textAndMarkdown() {
    GoldenFiles.assertMatches("report/search-race.txt", ReportFormat.TEXT.render(report()));
    GoldenFiles.assertMatches("report/search-race.md", ReportFormat.MD.render(report()));
  }

  @Test
  void theHtmlPageChartsTheBestSoFarAsAStepLine() {
    String page = HtmlReport.render(report(), null);
    String svg =
        page.substring(
            page.indexOf("<svg class=\"tunelab-progress\""),
            page.indexOf("</svg>", page.indexOf("tunelab-progress")) + 7);

    GoldenFiles.assertMatches("report/search-race-progress.svg", svg);
    assertTrue(page.contains("<h3>eliminated: 1 candidate</h3>"), page);
    assertTrue(page.indexOf("id=\"search\"") < page.indexOf("id=\"charts\""), page);
  }

  @Test
  void aScreenSizesTheEffectOfItsTwoLevelAxesARaceOnlyRanksThem() {
    List<TrialValue> t = trials();
    Search screen = new Search("all", "mib_per_s", true, 30, 3, Search.Method.SCREEN);
    String text =
        TextOutput.search(SearchSection.of(screen, data(t), new SearchRecord(t, rounds())));

    assertTrue(
        text.contains("search: maximize mib_per_s by screen, 21 of 30 trials spent\n"), text);
    assertTrue(
        text.contains("  scheduler      0.00   0.924  mq-deadline (172.714)  1.914 ["), text);
    assertTrue(!TextOutput.search(section()).contains("effect, last level"), "a race");
  }
}
