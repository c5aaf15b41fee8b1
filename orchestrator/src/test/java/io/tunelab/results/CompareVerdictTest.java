package io.tunelab.results;

import static io.tunelab.store.Fixtures.GIB;
import static io.tunelab.store.Fixtures.cell;
import static io.tunelab.store.Fixtures.dd;
import static io.tunelab.store.Fixtures.experiment;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.plan.Cell;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.Fixtures;
import io.tunelab.store.SettingRow;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import io.tunelab.store.TrialResult;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import io.tunelab.testing.GoldenFiles;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tunelab compare --min-change}: two runs of one matrix that differ in one fixed knob, the
 * loop disk's read-ahead (128 then 256, on whatever loop device each run got). With it, bs=64M
 * reads 1 % faster and bs=1M 11 % faster, both beyond doubt; bs=4M has two repetitions only.
 */
class CompareVerdictTest {
  private static final String RA = "local.block.${dev}.read_ahead_kb";

  @TempDir static Path dir;
  static String db;

  @BeforeAll
  static void buildDatabase() {
    db = dir.resolve("verdict.db").toString();
    try (JdbcResultStore store = JdbcResultStore.open(Path.of(db), Fixtures.CLOCK)) {
      run(store, "128", "loop3", Map.of("64M", 1.0, "1M", 1.0, "4M", 1.0));
      run(store, "256", "loop5", Map.of("64M", 1.01, "1M", 1.11, "4M", 1.3));
    }
  }

  /** One run at read-ahead {@code ra}; each bs reads {@code speedup} times as fast as at 128. */
  private static void run(
      JdbcResultStore store, String ra, String dev, Map<String, Double> speedup) {
    List<String> sizes = List.of("64M", "1M", "4M");
    List<Cell> cells = new java.util.ArrayList<>();
    for (int i = 0; i < sizes.size(); i++) {
      cells.add(cell(i + 1, Map.of(RA, ra), "bs", sizes.get(i)));
    }
    long id = store.createExperiment(experiment("loop-readahead", 3, 0, cells), "0.1.0-test");
    store.recordHost(
        id,
        "local",
        "local",
        Map.of(
            "kernel_release", "6.1.0-18-amd64",
            "boot_id", "boot-" + dev,
            "hostname", "lab1",
            "cpus", "4",
            "mem_kb", "8141212"));
    store.setExperimentStatus(id, ExperimentStatus.RUNNING);
    double[] noise = {0, 1.0, 1.001, 0.999};
    for (TrialRef t : store.unfinishedTrials(id)) {
      String bs = sizes.get(t.cellOrdinal() - 1);
      store.startTrial(t.trialId());
      if (bs.equals("4M") && t.rep() == 3) {
        store.commitTrial(TrialCommit.of(t.trialId(), Fixtures.failed("dd: short read")));
        continue;
      }
      double seconds = 8 / speedup.get(bs) * noise[t.rep()];
      TrialResult r = dd(seconds, GIB, Integer.parseInt(bs.replace("M", "")));
      SettingRow set =
          new SettingRow(
              "local",
              "local",
              "block." + dev + ".read_ahead_kb",
              "/sys/block/" + dev + "/queue/read_ahead_kb",
              ra,
              ra,
              "128",
              true);
      store.commitTrial(
          TrialCommit.of(
              t.trialId(),
              new TrialResult(
                  r.status(), r.error(), r.workloadSeconds(), r.samples(), List.of(set))));
    }
    store.setExperimentStatus(id, ExperimentStatus.FINISHED);
  }

  private static String compare(String... args) {
    String[] all = new String[args.length + 5];
    all[0] = "compare";
    all[1] = "--db";
    all[2] = db;
    all[3] = "1";
    all[4] = "2";
    System.arraycopy(args, 0, all, 5, args.length);
    Cli.Result r = Cli.tunelab(all);
    assertEquals(0, r.code(), r.all());
    return r.out();
  }

  @Test
  void aSignificantOnePercentIsTheSameElevenPercentBetterAndTheHeaderNamesTheKnob() {
    String out = compare("--min-change", "2%");

    assertTrue(out.contains("\nknob " + RA + " 128 → 256\n"), out);
    assertEquals(1, out.lines().filter(l -> l.contains(" → ")).count(), out);
    assertTrue(out.contains("*  same     <0.001  3/3  bs=64M\n"), out);
    assertTrue(out.contains("*  better   <0.001  3/3  bs=1M\n"), out);
    assertTrue(out.contains("  n<3"), out);
    assertTrue(out.contains("3 rows: 1 better, 1 same, 1 n<3\n"), out);
    GoldenFiles.assertMatches("compare/min-change.txt", out);
  }

  @Test
  void theDefaultIsTwoPercentAndAHalfPercentMinimumCallsTheOnePercentBetter() {
    assertEquals(compare("--min-change", "2%"), compare());
    String lax = compare("--min-change", "0.5");
    assertTrue(lax.contains("*  better   <0.001  3/3  bs=64M\n"), lax);
    assertTrue(lax.contains("|%change| >= 0.5% (--min-change)"), lax);
  }

  @Test
  void everyFormatCarriesTheVerdictsAndTheDifferences() {
    GoldenFiles.assertMatches("compare/min-change.md", compare("--format", "md"));
    GoldenFiles.assertMatches("compare/min-change.csv", compare("--format", "csv"));
    GoldenFiles.assertMatches("compare/min-change.json", compare("--format", "json"));
  }

  @Test
  void theOlderNameOfTheOptionStillWorks() {
    assertEquals(compare("--min-change", "0.5"), compare("--threshold", "0.5"));
  }
}
