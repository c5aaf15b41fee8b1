package io.tunelab.store;

import io.tunelab.matrix.Matrix;
import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.plan.Trial;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.workload.Sample;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Plans and trial outcomes for tests, shaped like what the runner stores. */
public final class Fixtures {
  /** A clock that makes every timestamp predictable. */
  public static final Clock CLOCK =
      Clock.fixed(Instant.parse("2024-05-01T12:00:00Z"), ZoneOffset.UTC);

  /** The tool version test experiments are recorded with. */
  public static final String TOOL_VERSION = "0.1.0-test";

  public static final double MIB = 1048576;
  public static final double GIB = 1024 * MIB;

  private Fixtures() {}

  /** A cell whose params are the given name/value pairs and whose label joins them. */
  public static Cell cell(int ordinal, String... nameValues) {
    return cell(ordinal, Map.of(), nameValues);
  }

  /** As {@link #cell(int, String...)}, with knobs. */
  public static Cell cell(int ordinal, Map<String, String> knobs, String... nameValues) {
    Map<String, String> params = new LinkedHashMap<>();
    List<String> label = new ArrayList<>();
    for (int i = 0; i < nameValues.length; i += 2) {
      params.put(nameValues[i], nameValues[i + 1]);
      label.add(nameValues[i].replaceAll(".*[./]", "") + "=" + nameValues[i + 1]);
    }
    return new Cell(ordinal, String.join("/", label), params, knobs, Map.of());
  }

  /**
   * An experiment whose cells each get {@code warmup} warm-up trials (rep 0) and then reps
   * 1..repeat, run cell after cell.
   */
  public static ExperimentPlan experiment(String name, int repeat, int warmup, List<Cell> cells) {
    List<Trial> trials = new ArrayList<>();
    int seq = 1;
    for (Cell c : cells) {
      for (int w = 0; w < warmup; w++) {
        trials.add(new Trial(c.ordinal(), 0, seq++, true));
      }
      for (int rep = 1; rep <= repeat; rep++) {
        trials.add(new Trial(c.ordinal(), rep, seq++, false));
      }
    }
    return ExperimentPlan.builder(name)
        .description("test experiment " + name)
        .matrix("name: " + name + "\n", "matrices/" + name + ".yaml")
        .order(Matrix.Order.SEQUENTIAL, 42)
        .repeat(repeat, warmup)
        .cells(cells)
        .trials(trials)
        .build();
  }

  /** A dd read of {@code bytes} taking {@code seconds} at a block size of {@code bsMiB}. */
  public static TrialResult dd(double seconds, double bytes, double bsMiB) {
    double mibPerS = bytes / seconds / MIB;
    List<Sample> samples = new ArrayList<>();
    for (String job : List.of("dd.0", "all")) {
      samples.add(new Sample(job, "seconds", seconds, "s"));
      samples.add(new Sample(job, "bytes", bytes, "B"));
      samples.add(new Sample(job, "mib_per_s", mibPerS, "MiB/s"));
      samples.add(new Sample(job, "iops", mibPerS / bsMiB, "IO/s"));
    }
    return new TrialResult(
        TrialStatus.OK, null, seconds, samples, List.of(readAhead("default", "128")));
  }

  /** A 1 GiB dd read at bs=64M. */
  public static TrialResult gib64(double seconds) {
    return dd(seconds, GIB, 64);
  }

  /** A command workload without a parser: its elapsed time only. */
  public static TrialResult timed(double seconds) {
    return new TrialResult(
        TrialStatus.OK,
        null,
        seconds,
        List.of(new Sample("all", "seconds", seconds, "s")),
        List.of());
  }

  /** A failed trial. */
  public static TrialResult failed(String error) {
    return new TrialResult(TrialStatus.FAILED, error, Double.NaN, List.of(), List.of());
  }

  /**
   * Two runs ("base" then "new" kernel) of a small read-ahead study: cases default and ra-2M x bs
   * 64M, 32M, 3 repetitions after a warm-up, 1 GiB reads. In the second run every case's first
   * repetition reads faster and one trial fails; the kernel rounds a requested max_sectors_kb.
   * Returns both experiment ids.
   */
  public static long[] readaheadStudy(JdbcResultStore store) {
    long[] ids = new long[2];
    for (int run = 0; run < 2; run++) {
      List<Cell> cells = new ArrayList<>();
      int ordinal = 1;
      for (String kase : List.of("default", "ra-2M")) {
        for (String bs : List.of("64M", "32M")) {
          cells.add(cell(ordinal++, "case", kase, "bs", bs));
        }
      }
      long id = store.createExperiment(experiment("readahead", 3, 1, cells), TOOL_VERSION);
      ids[run] = id;
      store.recordHost(
          id,
          "server",
          "srv1",
          Map.of("kernel_release", run == 0 ? "6.1.0" : "6.6.0", "boot_id", "b" + run));
      store.setExperimentStatus(id, ExperimentStatus.RUNNING);
      for (TrialRef t : store.unfinishedTrials(id)) {
        store.startTrial(t.trialId());
        if (run == 1 && t.cellOrdinal() == 4 && t.rep() == 3) {
          store.commitTrial(
              TrialCommit.of(
                  t.trialId(), failed("dd: error reading '/dev/sdb': Input/output error")));
          continue;
        }
        double bsMiB = t.cellOrdinal() % 2 == 1 ? 64 : 32;
        double seconds = 16 + t.cellOrdinal() * 0.25 + t.rep() * 0.125 - run * 2;
        TrialResult r = dd(seconds, GIB, bsMiB);
        List<SettingRow> settings =
            List.of(
                readAhead(
                    t.cellOrdinal() > 2 ? "2048" : "default", t.cellOrdinal() > 2 ? "2048" : "128"),
                new SettingRow(
                    "server",
                    "srv1",
                    "block.sdb.max_sectors_kb",
                    "/sys/block/sdb/queue/max_sectors_kb",
                    "1000",
                    "996",
                    "1280",
                    true));
        store.commitTrial(
            TrialCommit.of(
                t.trialId(),
                new TrialResult(
                    r.status(), r.error(), r.workloadSeconds(), r.samples(), settings)));
      }
      store.setExperimentStatus(id, ExperimentStatus.FINISHED);
    }
    return ids;
  }

  /** The read-ahead of sdb on host srv1 as the runner records it. */
  public static SettingRow readAhead(String requested, String effective) {
    return new SettingRow(
        "server",
        "srv1",
        "block.sdb.read_ahead_kb",
        "/sys/block/sdb/queue/read_ahead_kb",
        requested,
        effective,
        "128",
        !requested.equals("default"));
  }

  /** The rows of {@code sql} on the database file, integers widened to longs. */
  public static List<List<Object>> rows(Path db, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      List<List<Object>> rows = new ArrayList<>();
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          Object v = rs.getObject(i);
          row.add(v instanceof Integer small ? Long.valueOf(small) : v);
        }
        rows.add(row);
      }
      return rows;
    }
  }
}
