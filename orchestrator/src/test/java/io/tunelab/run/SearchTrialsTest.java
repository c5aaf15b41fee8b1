package io.tunelab.run;

import static io.tunelab.store.Fixtures.cell;
import static io.tunelab.store.Fixtures.experiment;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.matrix.Search;
import io.tunelab.plan.Cell;
import io.tunelab.search.Rounds;
import io.tunelab.store.Fixtures;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import io.tunelab.store.sqlite.JdbcResultStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A search's rounds on a real store: each round decided from the rounds stored before it, the
 * budget kept, the confirmation interleaved against {@code default}, and a run stopped mid-round
 * going on with that round's rest.
 */
class SearchTrialsTest {
  @TempDir Path dir;

  /** Four candidates; the second round keeps 2 and 4; cell 2 wins. */
  private static final Rounds TWO_ROUNDS =
      measured ->
          switch (measured.size()) {
            case 0 -> new Rounds.Decision(List.of(3, 1, 4, 2), List.of(), 0);
            case 1 ->
                new Rounds.Decision(
                    List.of(4, 2),
                    List.of(
                        new Rounds.State(1, "eliminated", "worse than cell 2"),
                        new Rounds.State(2, "live", null),
                        new Rounds.State(3, "eliminated", "worse than cell 2"),
                        new Rounds.State(4, "live", null)),
                    2);
            default -> new Rounds.Decision(List.of(), List.of(), 2);
          };

  private static final List<Cell> SPACE =
      List.of(
          cell(1, Map.of("client.vm.swappiness", "10"), "client.vm.swappiness", "10"),
          cell(2, Map.of("client.vm.swappiness", "20"), "client.vm.swappiness", "20"),
          cell(3, Map.of("client.vm.swappiness", "30"), "client.vm.swappiness", "30"),
          cell(4, Map.of("client.vm.swappiness", "40"), "client.vm.swappiness", "40"));

  @Test
  void roundsFollowTheDecisionsThenTheWinnerIsConfirmedAgainstDefaultInterleaved()
      throws Exception {
    List<String> out = new ArrayList<>();
    try (JdbcResultStore store = JdbcResultStore.open(dir.resolve("s.db"), Fixtures.CLOCK)) {
      long id = store.createExperiment(experiment("s", 1, 0, List.of()), Fixtures.TOOL_VERSION);
      SearchTrials search = search(store, id, out, 20, 3);

      List<TrialRef> first = search.next();
      assertEquals(List.of(3, 1, 4, 2), ordinals(first));
      assertEquals(List.of(1, 1, 1, 1), first.stream().map(TrialRef::rep).toList());
      commit(store, first);
      List<TrialRef> second = search.next();
      assertEquals(List.of(4, 2), ordinals(second));
      assertEquals(List.of(2, 2), second.stream().map(TrialRef::rep).toList());
      commit(store, second);
      List<TrialRef> confirm = search.next();
      assertEquals(List.of(2, 5, 2, 5, 2, 5), ordinals(confirm));
      assertEquals(List.of(3, 1, 4, 2, 5, 3), confirm.stream().map(TrialRef::rep).toList());
      Cell standIn = store.cells(id).get(4);
      assertEquals("default", standIn.label());
      assertEquals(Map.of("client.vm.swappiness", "default"), standIn.knobs());
      commit(store, confirm);
      assertEquals(List.of(), search.next());
      assertEquals(12, Fixtures.rows(dir.resolve("s.db"), "select id from trials").size());
    }
    assertEquals(
        "search: after round 1, 2 eliminated, 2 live, best so far cell 2 (swappiness=20)",
        out.get(0));
    assertEquals(
        List.of(
            Arrays.asList(1L, 1L, "eliminated", "worse than cell 2"),
            Arrays.asList(1L, 2L, "live", null),
            Arrays.asList(1L, 3L, "eliminated", "worse than cell 2"),
            Arrays.asList(1L, 4L, "live", null),
            Arrays.asList(2L, 2L, "winner", null)),
        Fixtures.rows(
            dir.resolve("s.db"),
            "select r.round, c.ordinal, r.state, r.reason from search_rounds r"
                + " join cells c on c.id = r.cell_id order by r.round, c.ordinal"));
    assertTrue(
        out.get(2).startsWith("search: winner cell 2 (swappiness=20); confirming it"), out.get(2));
    // Cell 2 takes 2 s less than default (12 s): 16.7 % less time, lower being better here.
    assertTrue(out.get(out.size() - 1).contains("cell 2 against default: -16.7%"), out.toString());
    assertTrue(out.get(out.size() - 1).endsWith("seconds, better"), out.toString());
  }

  @Test
  void theBudgetCutsTheRaceShortToLeaveRoomForTheConfirmation() throws Exception {
    try (JdbcResultStore store = JdbcResultStore.open(dir.resolve("b.db"), Fixtures.CLOCK)) {
      long id = store.createExperiment(experiment("b", 1, 0, List.of()), Fixtures.TOOL_VERSION);
      SearchTrials search = search(store, id, new ArrayList<>(), 9, 2);
      commit(store, search.next());
      List<TrialRef> second = search.next();
      assertEquals(List.of(4), ordinals(second), "9 - 2 * 2 = 5 race trials, 4 spent");
      commit(store, second);
      assertEquals(List.of(2, 5, 2, 5), ordinals(search.next()));
    }
  }

  @Test
  void aRunStoppedMidRoundGoesOnWithThatRoundsRestThenDecidesAgainFromTheStore() throws Exception {
    Path db = dir.resolve("r.db");
    long id;
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      id = store.createExperiment(experiment("r", 1, 0, List.of()), Fixtures.TOOL_VERSION);
      List<TrialRef> first = search(store, id, new ArrayList<>(), 20, 3).next();
      commit(store, first.subList(0, 2));
    }
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      SearchTrials resumed = search(store, id, new ArrayList<>(), 20, 3);
      List<TrialRef> rest = resumed.next();
      assertEquals(List.of(4, 2), ordinals(rest));
      commit(store, rest);
      assertEquals(List.of(4, 2), ordinals(resumed.next()));
    }
  }

  private static SearchTrials search(
      JdbcResultStore store, long id, List<String> out, int budget, int confirm) {
    RunContext run = new RunContext(null, null, null, store, id, out::add, () -> false, null, null);
    return new SearchTrials(
        run,
        new Search("all", "seconds", false, budget, confirm),
        TWO_ROUNDS,
        new ArrayList<>(SPACE));
  }

  /** A trial of cell N takes 8 + N s, default 12 s, with a little spread. */
  private static void commit(JdbcResultStore store, List<TrialRef> trials) {
    for (TrialRef t : trials) {
      double seconds = t.cellOrdinal() == 5 ? 12 : 8 + t.cellOrdinal();
      seconds += 0.01 * (t.rep() % 3);
      store.startTrial(t.trialId());
      store.commitTrial(
          new TrialCommit(
              t.trialId(), Fixtures.timed(seconds), List.of(), "ok", OptionalLong.empty()));
    }
  }

  private static List<Integer> ordinals(List<TrialRef> trials) {
    return trials.stream().map(TrialRef::cellOrdinal).toList();
  }
}
