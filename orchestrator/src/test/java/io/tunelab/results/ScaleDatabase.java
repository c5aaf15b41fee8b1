package io.tunelab.results;

import io.tunelab.plan.Cell;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.Fixtures;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import io.tunelab.store.TrialResult;
import io.tunelab.store.TrialStatus;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.workload.Sample;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Builds a large database through the store API, trial by trial as the runner commits them, for
 * bench/results-scale.sh: {@code EXPERIMENTS} runs of a matrix of 10 x 10 x 10 x 10 cells with
 * {@code REPS} repetitions, each trial with two jobs (dd.0 and all) of five metrics: ten samples,
 * so 10,000 cells x 10 repetitions are a million samples per experiment.
 *
 * <p>Usage: {@code java -cp tunelab.jar:test-classes io.tunelab.results.ScaleDatabase DB [CELLS]
 * [REPS] [EXPERIMENTS]}
 */
public final class ScaleDatabase {
  private ScaleDatabase() {}

  public static void main(String[] args) {
    Path db = Path.of(args[0]);
    int cells = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    int reps = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    int experiments = args.length > 3 ? Integer.parseInt(args[3]) : 2;
    long start = System.nanoTime();
    try (JdbcResultStore store = JdbcResultStore.open(db)) {
      for (int e = 0; e < experiments; e++) {
        build(store, cells, reps, e);
      }
    }
    System.out.printf(
        "built %s: %d experiments x %d cells x %d repetitions in %.1f s%n",
        db, experiments, cells, reps, (System.nanoTime() - start) / 1e9);
  }

  static long build(JdbcResultStore store, int count, int reps, int run) {
    String[] axes = {
      "local.block.${dev}.read_ahead_kb", "local.block.${dev}.nr_requests", "bs", "case"
    };
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Map<String, String> params = new LinkedHashMap<>();
      Map<String, String> knobs = new LinkedHashMap<>();
      List<String> label = new ArrayList<>();
      int rest = i;
      for (int a = axes.length - 1; a >= 0; a--) {
        String value =
            axes[a].equals("case") ? "case-" + rest % 10 : String.valueOf((rest % 10 + 1) * 64);
        params.put(axes[a], value);
        rest /= 10;
      }
      Map<String, String> ordered = new LinkedHashMap<>();
      for (String a : axes) {
        ordered.put(a, params.get(a));
        label.add(a.replaceAll(".*[./]", "") + "=" + params.get(a));
        if (a.startsWith("local.")) {
          knobs.put(a, params.get(a));
        }
      }
      cells.add(new Cell(i + 1, String.join("/", label), ordered, knobs, Map.of()));
    }
    long id =
        store.createExperiment(Fixtures.experiment("scale", reps, 0, cells), Fixtures.TOOL_VERSION);
    store.recordHost(id, "local", "bench", Map.of("kernel_release", run == 0 ? "6.1.0" : "6.6.0"));
    store.setExperimentStatus(id, ExperimentStatus.RUNNING);
    Random random = new Random(42 + run);
    for (TrialRef t : store.unfinishedTrials(id)) {
      double seconds =
          (1 + t.cellOrdinal() % 97 / 100.0)
              * (1 + 0.02 * random.nextGaussian())
              * (run == 0 ? 1 : 0.98);
      double bytes = 256 * Fixtures.MIB;
      double mib = bytes / seconds / Fixtures.MIB;
      List<Sample> samples = new ArrayList<>();
      for (String job : List.of("dd.0", "all")) {
        samples.add(new Sample(job, "seconds", seconds, "s"));
        samples.add(new Sample(job, "bytes", bytes, "B"));
        samples.add(new Sample(job, "mib_per_s", mib, "MiB/s"));
        samples.add(new Sample(job, "iops", mib, "IO/s"));
        samples.add(new Sample(job, "iowait_pct", 20 + random.nextDouble(), "%"));
      }
      store.commitTrial(
          TrialCommit.of(
              t.trialId(), new TrialResult(TrialStatus.OK, null, seconds, samples, List.of())));
    }
    store.setExperimentStatus(id, ExperimentStatus.FINISHED);
    return id;
  }
}
