package io.tunelab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Boot;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Trial;
import io.tunelab.store.TrialCounts;
import io.tunelab.store.TrialStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Between-boot against within-boot spread, on hand-made trials. */
class BootSpreadTest {
  /** A trial of {@code value} seconds with the server on {@code serverBoot}, the client on one. */
  private static Trial trial(int rep, double value, String serverBoot) {
    return new Trial(
        rep,
        false,
        TrialStatus.OK,
        null,
        Map.of("seconds", value),
        List.of(
            new Boot("cli1", "6.1", "c", "ro"), new Boot("srv1", "6.6", serverBoot, "ro quiet")));
  }

  private static ReportData data(List<List<Trial>> cells) {
    List<Cell> list = new ArrayList<>();
    for (int i = 0; i < cells.size(); i++) {
      list.add(new Cell(i + 1, "bs=" + i, Map.of("bs", "" + i), cells.get(i), Map.of()));
    }
    return ReportData.builder(1, "boots")
        .status(ExperimentStatus.FINISHED)
        .counts(new TrialCounts(0, 0, 0, 0, 0))
        .job("all", List.of("all"))
        .units(Map.of("seconds", "s"))
        .paramNames(List.of("bs"))
        .cells(list)
        .build();
  }

  @Test
  void betweenIsTheSpreadOfTheBootMeansWithinThePooledSpreadAroundThem() {
    List<Trial> twoBoots =
        List.of(trial(1, 10, "a"), trial(2, 12, "a"), trial(3, 20, "b"), trial(4, 22, "b"));
    List<Trial> oneBoot = List.of(trial(1, 5, "a"), trial(2, 7, "a"));

    List<BootSpread> spreads = BootSpread.of(data(List.of(twoBoots, oneBoot)), "seconds");

    assertEquals(2, spreads.size());
    BootSpread first = spreads.get(0);
    assertEquals(2, first.boots());
    assertEquals(Math.sqrt(50), first.between(), 1e-12); // means 11 and 21
    assertEquals(Math.sqrt(2), first.within(), 1e-12); // 4 squares of 1 over 4 - 2
    assertEquals(
        "cell 1 (bs=0): boots: 2, between-boot sd 7.071, within-boot sd 1.414", first.text());
    assertEquals(
        "cell 2 (bs=1): boots: 1, between-boot sd -, within-boot sd 1.414", spreads.get(1).text());
  }

  @Test
  void nothingWhenNoCellRanOnTwoBootsOfAHost() {
    List<Trial> oneBoot = List.of(trial(1, 5, "a"), trial(2, 7, "a"));
    List<Trial> unrecorded =
        List.of(
            new Trial(1, false, TrialStatus.OK, null, Map.of("seconds", 1.0)),
            new Trial(2, false, TrialStatus.OK, null, Map.of("seconds", 2.0)));

    assertTrue(BootSpread.of(data(List.of(oneBoot, unrecorded)), "seconds").isEmpty());
  }

  @Test
  void failedTrialsAndWarmUpsDoNotCount() {
    List<Trial> trials =
        List.of(
            new Trial(
                0, true, TrialStatus.OK, null, Map.of("seconds", 99.0), trial(0, 0, "x").boots()),
            trial(1, 10, "a"),
            new Trial(2, false, TrialStatus.FAILED, "boom", Map.of(), trial(0, 0, "b").boots()),
            trial(3, 20, "b"));

    BootSpread only = BootSpread.of(data(List.of(trials)), "seconds").get(0);

    assertEquals(2, only.boots());
    assertEquals(Math.sqrt(50), only.between(), 1e-12);
    assertTrue(Double.isNaN(only.within()), "no boot has two trials");
  }
}
