package io.tunelab.results;

import static io.tunelab.store.Fixtures.GIB;
import static io.tunelab.store.Fixtures.cell;
import static io.tunelab.store.Fixtures.dd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.matrix.Matrix;
import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.plan.PlanBuilder;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.Fixtures;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tunelab compare --axis} of an experiment run with {@code order: rounds}: the machine slows
 * down round after round, and bfq reads 3 % faster than none in every round. Paired by round that
 * is beyond doubt; {@code --test mann-whitney} ranks the values as independent samples.
 */
class CompareRoundsTest {
  @TempDir static Path dir;
  static String db;

  @BeforeAll
  static void buildDatabase() {
    db = dir.resolve("rounds.db").toString();
    List<Cell> cells = List.of(cell(1, "scheduler", "none"), cell(2, "scheduler", "bfq"));
    ExperimentPlan plan =
        ExperimentPlan.builder("drifting")
            .description("test experiment drifting")
            .matrix("name: drifting\n", "matrices/drifting.yaml")
            .order(Matrix.Order.ROUNDS, 42)
            .repeat(4, 0)
            .cells(cells)
            .trials(PlanBuilder.build(2, 4, 0, Matrix.Order.ROUNDS, 42))
            .build();
    try (JdbcResultStore store = JdbcResultStore.open(Path.of(db), Fixtures.CLOCK)) {
      long id = store.createExperiment(plan, Fixtures.TOOL_VERSION);
      store.setExperimentStatus(id, ExperimentStatus.RUNNING);
      for (TrialRef t : store.unfinishedTrials(id)) {
        store.startTrial(t.trialId());
        double seconds = 8 * (1 + 0.1 * (t.rep() - 1)) / (t.cellOrdinal() == 2 ? 1.03 : 1);
        store.commitTrial(TrialCommit.of(t.trialId(), dd(seconds, GIB, 1)));
      }
      store.setExperimentStatus(id, ExperimentStatus.FINISHED);
    }
  }

  private static Cli.Result compare(String... args) {
    String[] all = new String[args.length + 5];
    all[0] = "compare";
    all[1] = "--db";
    all[2] = db;
    all[3] = "--axis";
    all[4] = "scheduler=none,bfq";
    System.arraycopy(args, 0, all, 5, args.length);
    return Cli.tunelab(all);
  }

  @Test
  void roundsPairUpAndTheDriftCancels() {
    Cli.Result r = compare();
    assertEquals(0, r.code(), r.all());
    String out = r.out();
    assertTrue(out.contains("* = paired t-test of the rounds' log ratios p < 0.05"), out);
    assertTrue(out.contains("  +3.0%  [+3.0, +3.0]  115.744 ±9.8%  *  better   <0.001  4/4"), out);
    assertTrue(out.contains("  112.373    +3.0%  [+3.0, +3.0]        115.744"), out);
    assertTrue(compare("--format", "json").out().contains("\"paired\" : true"));
  }

  @Test
  void mannWhitneyTakesTheValuesAsIndependentSamples() {
    Cli.Result r = compare("--test", "mann-whitney");
    assertEquals(0, r.code(), r.all());
    assertTrue(r.out().contains("* = Mann-Whitney U test p < 0.05"), r.out());
    assertTrue(r.out().contains("~  same"), r.out());
    assertTrue(r.out().contains("on the log ratio of the means"), r.out());
  }

  @Test
  void anUnknownTestIsBadInput() {
    Cli.Result r = compare("--test", "student");
    assertEquals(2, r.code(), r.all());
    assertTrue(r.err().contains("unknown test student (expected welch or mann-whitney)"), r.all());
    assertEquals("", r.out());
  }
}
