package io.tunelab.run;

import io.tunelab.matrix.Kernels;
import io.tunelab.matrix.Search;
import io.tunelab.plan.Cell;
import io.tunelab.plan.Trial;
import io.tunelab.search.Confirmation;
import io.tunelab.search.Rounds;
import io.tunelab.store.SearchState;
import io.tunelab.store.TrialRef;
import io.tunelab.store.TrialValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A search's trials, a round at a time: each round is what {@link Rounds} decides from the rounds
 * stored before it (so a resumed run decides again from the same rounds and goes on where it
 * stopped), until the budget left for the confirmation is reached or the search ends. Then the
 * confirmation: the winner against {@code default} (the winner's cell with every knob at the host's
 * own value), {@code confirm} trials each, interleaved.
 */
final class SearchTrials implements TrialSource {
  private final RunContext run;
  private final Search spec;
  private final Rounds rounds;
  private final List<Cell> cells;
  private final List<Cell> space;
  private boolean asked;

  /**
   * {@code cells} holds every cell of the matrix, by ordinal from 1: the loop's cells, to which
   * {@code default} is added (after them) when the confirmation begins, or now when a stopped run's
   * confirmation had begun.
   */
  SearchTrials(RunContext run, Search spec, Rounds rounds, List<Cell> cells) {
    this.run = run;
    this.spec = spec;
    this.rounds = rounds;
    this.cells = cells;
    this.space = List.copyOf(cells);
    int defaultOrdinal = space.size() + 1;
    run.store().cells(run.experimentId()).stream()
        .filter(c -> c.ordinal() == defaultOrdinal)
        .findFirst()
        .flatMap(d -> space.stream().filter(c -> c.params().equals(d.params())).findFirst())
        .ifPresent(winner -> cells.add(defaultOf(winner, defaultOrdinal)));
  }

  /** The cell {@code default} is measured as: the winner's, every knob at the host's own value. */
  static Cell defaultOf(Cell winner, int ordinal) {
    Map<String, String> knobs = new LinkedHashMap<>();
    winner.knobs().forEach((k, v) -> knobs.put(k, Kernels.isKey(k) ? v : ExperimentKnobs.DEFAULT));
    return new Cell(ordinal, "default", winner.params(), knobs, winner.vars());
  }

  @Override
  public int total(int firstBatch) {
    return spec.budget();
  }

  @Override
  public List<TrialRef> next() {
    if (!asked) {
      asked = true;
      // The rest of a round a stopped run began: decided already.
      List<TrialRef> left = run.store().unfinishedTrials(run.experimentId());
      if (!left.isEmpty()) {
        return left;
      }
    }
    List<TrialValue> done = run.store().trialValues(run.experimentId(), spec.job(), spec.metric());
    int defaultOrdinal = space.size() + 1;
    if (done.stream().anyMatch(v -> v.cellOrdinal() == defaultOrdinal)) {
      confirmed(done, defaultOrdinal);
      return List.of();
    }
    List<Rounds.Round> measured = measured(done);
    Rounds.Decision decision = rounds.next(measured);
    tell(measured.size(), decision);
    int raceBudget = spec.budget() - 2 * spec.confirm();
    int left = raceBudget - done.size();
    if (!decision.cells().isEmpty() && left > 0) {
      List<Integer> cells = decision.cells().subList(0, Math.min(left, decision.cells().size()));
      int round = measured.size() + 1;
      List<TrialRef> next =
          append(cells.stream().map(c -> new Trial(c, round, 0, false)).toList(), List.of());
      record(measured.size(), decision.states());
      return next;
    }
    record(measured.size(), decision.states());
    if (decision.winner() == 0 || spec.confirm() == 0) {
      return List.of();
    }
    Cell winner = space.get(decision.winner() - 1);
    record(measured.size(), List.of(new Rounds.State(winner.ordinal(), SearchState.WINNER, null)));
    run.out()
        .accept(
            "search: winner cell "
                + winner.ordinal()
                + " ("
                + winner.label()
                + "); confirming it against default, "
                + spec.confirm()
                + " trials each, interleaved");
    List<Trial> trials = new ArrayList<>();
    for (int i = 1; i <= spec.confirm(); i++) {
      trials.add(new Trial(winner.ordinal(), measured.size() + i, 0, false));
      trials.add(new Trial(defaultOrdinal, i, 0, false));
    }
    Cell standIn = defaultOf(winner, defaultOrdinal);
    cells.add(standIn);
    return append(trials, List.of(standIn));
  }

  private List<TrialRef> append(List<Trial> trials, List<Cell> extra) {
    List<Cell> cells = new ArrayList<>(extra);
    trials.stream()
        .map(Trial::cellOrdinal)
        .distinct()
        .filter(o -> o <= space.size())
        .forEach(o -> cells.add(space.get(o - 1)));
    return run.store().appendTrials(run.experimentId(), cells, trials);
  }

  /** The race's rounds as stored: trials by repetition, each a round. */
  private List<Rounds.Round> measured(List<TrialValue> done) {
    Map<Integer, Map<Integer, Double>> byRound = new TreeMap<>();
    for (TrialValue v : done) {
      byRound.computeIfAbsent(v.rep(), r -> new LinkedHashMap<>()).put(v.cellOrdinal(), v.value());
    }
    List<Rounds.Round> measured = new ArrayList<>();
    byRound.forEach((round, values) -> measured.add(new Rounds.Round(round, values)));
    return measured;
  }

  private void tell(int round, Rounds.Decision decision) {
    if (round == 0) {
      return;
    }
    long live = decision.states().stream().filter(s -> s.state().equals(SearchState.LIVE)).count();
    long out = decision.states().size() - live;
    Cell best = decision.winner() == 0 ? null : space.get(decision.winner() - 1);
    run.out()
        .accept(
            String.format(
                Locale.ROOT,
                "search: after round %d, %d eliminated, %d live, best so far cell %d (%s)",
                round,
                out,
                live,
                decision.winner(),
                best == null ? "none" : best.label()));
  }

  /** Keeps each candidate's state after {@code round}, once its cell is stored. */
  private void record(int round, List<Rounds.State> states) {
    if (round > 0 && !states.isEmpty()) {
      run.store()
          .recordSearchRound(
              run.experimentId(),
              round,
              states.stream().map(s -> new SearchState(s.cell(), s.state(), s.reason())).toList());
    }
  }

  /** Prints the confirmation's verdict, as {@code compare} words it. */
  private void confirmed(List<TrialValue> done, int defaultOrdinal) {
    Confirmation c =
        Confirmation.of(
            done.stream()
                .map(v -> new Confirmation.Value(v.cellOrdinal(), v.rep(), v.value()))
                .toList(),
            defaultOrdinal,
            spec.maximize());
    if (!c.tested()) {
      run.out().accept("search: confirmation has too few ok trials for a verdict");
      return;
    }
    run.out()
        .accept(
            "search: cell "
                + c.winner()
                + " against default: "
                + c.text(
                    spec.job().equals("all") ? spec.metric() : spec.job() + "." + spec.metric()));
  }
}
