package io.tunelab.store.sqlite;

import static io.tunelab.store.Fixtures.cell;
import static io.tunelab.store.Fixtures.experiment;
import static io.tunelab.store.Fixtures.gib64;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.TunelabException;
import io.tunelab.plan.Cell;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ExperimentSummary;
import io.tunelab.store.Fixtures;
import io.tunelab.store.OpenCell;
import io.tunelab.store.ResultReader;
import io.tunelab.store.RunStore;
import io.tunelab.store.StoredExperiment;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialCounts;
import io.tunelab.store.TrialRef;
import io.tunelab.store.TrialResult;
import io.tunelab.store.TrialStatus;
import io.tunelab.store.TrialValue;
import io.tunelab.store.sql.Migrations;
import io.tunelab.workload.Sample;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JdbcResultStoreTest {
  @TempDir Path dir;

  private Path db() {
    return dir.resolve("tunelab.db");
  }

  @Test
  void migrationsApplyOnceAndReopeningChangesNothing() throws Exception {
    JdbcResultStore.open(db(), Fixtures.CLOCK).close();
    List<List<Object>> first = rows("SELECT version, name, applied_at FROM schema_version");
    try (JdbcResultStore store = JdbcResultStore.open(db())) {
      assertTrue(store.experiments().isEmpty());
    }

    assertEquals(first, rows("SELECT version, name, applied_at FROM schema_version"));
    assertEquals(Migrations.bundled().size(), first.size());
    assertEquals(List.of(1L, "V1__init.sql", "2024-05-01T12:00:00.000Z"), first.get(0));
    assertEquals("wal", rows("PRAGMA journal_mode").get(0).get(0));
  }

  @Test
  void aNewDatabaseAppearsWithItsWholeSchema() throws Exception {
    JdbcResultStore.open(db()).close();

    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of("tunelab.db"), files.map(f -> f.getFileName().toString()).toList());
    }
    try (ResultReader store = JdbcResultStore.openReadOnly(db())) {
      assertTrue(store.experiments().isEmpty());
    }
    assertEquals(
        List.of(List.of((long) Migrations.bundled().size())),
        rows("SELECT count(*) FROM schema_version"));
  }

  @Test
  void createExperimentStoresThePlanAsGiven() {
    Map<String, String> knobs = new LinkedHashMap<>();
    knobs.put("server.block.${dev}.scheduler", "none");
    knobs.put("server.block.${dev}.read_ahead_kb", "default");
    List<Cell> cells =
        List.of(
            cell(1, knobs, "case", "default", "bs", "64M"),
            cell(2, knobs, "case", "default", "bs", "32M"));
    try (JdbcResultStore store = JdbcResultStore.open(db(), Fixtures.CLOCK)) {
      long id = store.createExperiment(experiment("readahead", 3, 1, cells), Fixtures.TOOL_VERSION);

      assertEquals(cells, store.cells(id));
      assertEquals(List.of("case", "bs"), List.copyOf(store.cells(id).get(0).params().keySet()));
      StoredExperiment e = store.findExperiment(Long.toString(id)).orElseThrow();
      assertEquals(
          new StoredExperiment(
              id,
              "readahead",
              ExperimentStatus.PLANNED,
              "name: readahead\n",
              "matrices/readahead.yaml",
              "sequential",
              42,
              3,
              1),
          e);
      List<TrialRef> trials = store.unfinishedTrials(id);
      assertEquals(8, trials.size());
      assertEquals(
          new TrialRef(trials.get(0).trialId(), trials.get(0).cellId(), 1, 0, 1, true),
          trials.get(0));
      assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8), trials.stream().map(TrialRef::seq).toList());
      assertEquals(new TrialCounts(0, 0, 0, 8, 0), store.trialCounts(id));
    }
  }

  @Test
  void findExperimentByIdOrByTheLatestOfAName() {
    try (JdbcResultStore store = JdbcResultStore.open(db())) {
      long a =
          store.createExperiment(
              experiment("study", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      long b =
          store.createExperiment(
              experiment("study", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      long c =
          store.createExperiment(
              experiment("other", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);

      assertEquals(a, store.findExperiment(Long.toString(a)).orElseThrow().id());
      assertEquals(b, store.findExperiment("study").orElseThrow().id());
      assertEquals(c, store.latest().orElseThrow().id());
      assertTrue(store.findExperiment("missing").isEmpty());
      assertTrue(store.findExperiment("999").isEmpty());
      assertEquals(
          List.of("study", "study", "other"),
          store.experiments().stream().map(ExperimentSummary::name).toList());
    }
  }

  @Test
  void finishTrialRefreshesCellStatsOverOkMeasuredTrialsOnly() throws Exception {
    try (JdbcResultStore store = JdbcResultStore.open(db())) {
      long id =
          store.createExperiment(
              experiment("stats", 4, 1, List.of(cell(1, "bs", "64M"), cell(2, "bs", "32M"))),
              Fixtures.TOOL_VERSION);
      List<TrialRef> trials = store.unfinishedTrials(id);
      // Cell 1: a wild warm-up, the design example's three reads, one failure.
      store.commitTrial(TrialCommit.of(trials.get(0).trialId(), gib64(1.0)));
      store.commitTrial(TrialCommit.of(trials.get(1).trialId(), gib64(16.067)));
      store.commitTrial(TrialCommit.of(trials.get(2).trialId(), gib64(16.883)));
      store.startTrial(trials.get(3).trialId());
      store.commitTrial(TrialCommit.of(trials.get(3).trialId(), gib64(16.096)));
      store.commitTrial(TrialCommit.of(trials.get(4).trialId(), Fixtures.failed("dd: I/O error")));

      List<List<Object>> stats =
          rows(
              "SELECT c.ordinal, n, mean, stddev_pop, stddev_samp, min, median, max, unit"
                  + " FROM cell_stats s JOIN cells c ON c.id = s.cell_id"
                  + " WHERE job = 'all' AND metric = 'mib_per_s'");
      assertEquals(1, stats.size(), "cell 2 has no ok trial yet");
      List<Object> row = stats.get(0);
      assertEquals(1L, row.get(0));
      assertEquals(3L, row.get(1));
      assertEquals(62.668045, (Double) row.get(2), 1e-6);
      assertEquals(1.425816, (Double) row.get(3), 1e-6);
      assertEquals(1.746260, (Double) row.get(4), 1e-6);
      assertEquals(1024 / 16.883, (Double) row.get(5), 1e-9);
      assertEquals(1024 / 16.096, (Double) row.get(6), 1e-9);
      assertEquals(1024 / 16.067, (Double) row.get(7), 1e-9);
      assertEquals("MiB/s", row.get(8));
      assertEquals(
          0.979188,
          (Double)
              rows("SELECT mean FROM cell_stats WHERE job = 'all' AND metric = 'iops'")
                  .get(0)
                  .get(0),
          1e-6);
      assertEquals(
          List.of(List.of("failed", "dd: I/O error")),
          rows("SELECT status, error FROM trials WHERE id = " + trials.get(4).trialId()));
      assertEquals(new TrialCounts(4, 1, 0, 5, 0), store.trialCounts(id));
    }
  }

  @Test
  void aTrialsValueForASearchIsTheMeanOfItsSamplesOfTheMetric() throws Exception {
    try (JdbcResultStore store = JdbcResultStore.open(db())) {
      long id =
          store.createExperiment(
              experiment("two-samples", 1, 0, List.of(cell(1, "bs", "64M"))),
              Fixtures.TOOL_VERSION);
      // A parser that prints the metric twice in one trial (two lines of a metrics parser).
      store.commitTrial(
          TrialCommit.of(
              store.unfinishedTrials(id).get(0).trialId(),
              new TrialResult(
                  TrialStatus.OK,
                  null,
                  1.0,
                  List.of(
                      new Sample("all", "score", 0.0, ""), new Sample("all", "score", 100.0, "")),
                  List.of())));

      assertEquals(List.of(new TrialValue(1, 1, 50.0)), store.trialValues(id, "all", "score"));
      assertTrue(Double.isNaN(store.trialValues(id, "all", "missing").get(0).value()));
    }
  }

  @Test
  void aSingleOkTrialHasNoSampleDeviation() throws Exception {
    try (JdbcResultStore store = JdbcResultStore.open(db())) {
      long id =
          store.createExperiment(
              experiment("one", 1, 0, List.of(cell(1, "bs", "64M"))), Fixtures.TOOL_VERSION);
      store.commitTrial(TrialCommit.of(store.unfinishedTrials(id).get(0).trialId(), gib64(16.0)));
    }
    assertEquals(
        List.of(List.of(1L, 0.0, 64.0)),
        rows(
            "SELECT n, stddev_pop, coalesce(stddev_samp, 64.0) FROM cell_stats"
                + " WHERE job = 'all' AND metric = 'mib_per_s'"));
  }

  @Test
  void finishingATrialAgainReplacesItsSamplesAndSettings() throws Exception {
    try (JdbcResultStore store = JdbcResultStore.open(db())) {
      long id =
          store.createExperiment(
              experiment("again", 1, 0, List.of(cell(1, "bs", "64M"))), Fixtures.TOOL_VERSION);
      long trial = store.unfinishedTrials(id).get(0).trialId();
      store.commitTrial(TrialCommit.of(trial, gib64(20.0)));
      store.commitTrial(TrialCommit.of(trial, gib64(16.0)));
    }
    assertEquals(List.of(List.of(8L)), rows("SELECT count(*) FROM samples"));
    assertEquals(List.of(List.of(1L)), rows("SELECT count(*) FROM settings"));
    assertEquals(
        List.of(List.of(1L, 64.0)),
        rows("SELECT n, mean FROM cell_stats WHERE job = 'all' AND metric = 'mib_per_s'"));
  }

  @Test
  void unfinishedTrialsArePendingOrRunningInRunOrder() {
    try (JdbcResultStore store = JdbcResultStore.open(db())) {
      long id =
          store.createExperiment(
              experiment("resume", 2, 0, List.of(cell(1, "bs", "1M"), cell(2, "bs", "2M"))),
              Fixtures.TOOL_VERSION);
      List<TrialRef> all = store.unfinishedTrials(id);
      store.commitTrial(TrialCommit.of(all.get(0).trialId(), gib64(10)));
      store.commitTrial(TrialCommit.of(all.get(1).trialId(), Fixtures.failed("boom")));
      store.startTrial(all.get(2).trialId());
      store.commitTrial(
          TrialCommit.of(
              all.get(3).trialId(), new TrialResult(TrialStatus.SKIPPED, null, 0, null, null)));
      long other =
          store.createExperiment(
              experiment("other", 1, 0, List.of(cell(1, "x", "1"))), Fixtures.TOOL_VERSION);

      List<TrialRef> left = store.unfinishedTrials(id);

      assertEquals(List.of(all.get(2)), left, "the interrupted running trial only");
      assertEquals(1, store.unfinishedTrials(other).size());
      assertEquals(new TrialCounts(1, 1, 1, 0, 1), store.trialCounts(id));
    }
  }

  @Test
  void experimentStatusStampsStartAndFinish() throws Exception {
    try (JdbcResultStore store = JdbcResultStore.open(db(), Fixtures.CLOCK)) {
      long id =
          store.createExperiment(
              experiment("status", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      store.setExperimentStatus(id, ExperimentStatus.RUNNING);
      store.setExperimentStatus(id, ExperimentStatus.INTERRUPTED);
      store.setExperimentStatus(id, ExperimentStatus.RUNNING);
      assertEquals(
          List.of(List.of("running", "2024-05-01T12:00:00.000Z")),
          rows("SELECT status, coalesce(finished_at, started_at) FROM experiments"));
      store.setExperimentStatus(id, ExperimentStatus.FINISHED);

      assertThrows(IllegalArgumentException.class, () -> ExperimentStatus.of("done"));
      assertThrows(
          IllegalArgumentException.class,
          () -> store.setExperimentStatus(99, ExperimentStatus.FAILED));
      ExperimentSummary s = store.experiments().get(0);
      assertEquals(ExperimentStatus.FINISHED, s.status());
      assertEquals("2024-05-01T12:00:00.000Z", s.startedAt());
      assertEquals("2024-05-01T12:00:00.000Z", s.finishedAt());
      assertEquals(1, s.cells());
    }
  }

  @Test
  void hostsAndVariablesAreReplacedOnResume() throws Exception {
    try (JdbcResultStore store = JdbcResultStore.open(db())) {
      long id =
          store.createExperiment(
              experiment("hosts", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      Map<String, String> facts = new LinkedHashMap<>();
      facts.put("kernel_release", "6.1.0-18-amd64");
      facts.put("boot_id", "b1");
      facts.put("cpus", "8");
      facts.put("mem_kb", "not a number");
      facts.put("block.sdb", "[mq-deadline] none");
      store.recordHost(id, "server", "srv1", facts);
      facts.put("boot_id", "b2");
      store.recordHost(id, "server", "srv1", facts);
      Map<String, String> vars = new LinkedHashMap<>();
      vars.put("dev", "loop3");
      vars.put("addr", "10.0.0.1");
      store.recordVariables(id, Map.of("dev", "loop9"));
      store.recordVariables(id, vars);

      assertEquals(vars, store.variables(id));
      assertEquals(List.of("dev", "addr"), List.copyOf(store.variables(id).keySet()));
    }
    assertEquals(
        List.of(Arrays.asList("srv1", "6.1.0-18-amd64", "b2", 8L, null)),
        rows("SELECT host, kernel_release, boot_id, cpus, mem_kb FROM hosts"));
    assertEquals(
        List.of(List.of("[mq-deadline] none")),
        rows("SELECT value FROM host_facts WHERE key = 'block.sdb'"));
    assertEquals(List.of(List.of(5L)), rows("SELECT count(*) FROM host_facts"));
    assertTrue(
        rows("SELECT facts_json FROM hosts")
            .get(0)
            .get(0)
            .toString()
            .contains("\"boot_id\":\"b2\""));
  }

  @Test
  void theOpenCellIsKeptBesideTheVariablesUntilForgotten() throws Exception {
    try (JdbcResultStore store = JdbcResultStore.open(db())) {
      long id =
          store.createExperiment(
              experiment("open-cell", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      store.recordVariables(id, Map.of("dev", "loop3"));
      assertEquals(Optional.empty(), store.openCell(id));
      Map<String, String> captures = new LinkedHashMap<>();
      captures.put("lun", "sdb");
      captures.put("disks", "loop4\nloop5");
      store.recordOpenCell(id, new OpenCell(2, Map.of()));
      store.recordOpenCell(id, new OpenCell(3, captures));

      assertEquals(Optional.of(new OpenCell(3, captures)), store.openCell(id));
      assertEquals(
          List.of("lun", "disks"),
          List.copyOf(store.openCell(id).orElseThrow().captures().keySet()));
      assertEquals(Map.of("dev", "loop3"), store.variables(id), "cell rows are no variables");
      store.recordVariables(id, Map.of("dev", "loop4"));
      assertEquals(3, store.openCell(id).orElseThrow().cellOrdinal(), "kept on resume");
      store.recordOpenCell(id, null);
      assertEquals(Optional.empty(), store.openCell(id));
      assertEquals(Map.of("dev", "loop4"), store.variables(id));
    }
  }

  @Test
  void aLargePlanIsWrittenInOneGo() throws Exception {
    List<Cell> cells = new ArrayList<>();
    for (int i = 1; i <= 100_000; i++) {
      cells.add(
          cell(
              i,
              Map.of("disk.vm.dirty_ratio", "20"),
              "bs",
              i % 2 == 0 ? "1M" : "64M",
              "threads",
              Integer.toString(i)));
    }
    try (JdbcResultStore store = JdbcResultStore.open(db())) {
      long id = store.createExperiment(experiment("big", 3, 0, cells), Fixtures.TOOL_VERSION);

      assertEquals(300_000, store.unfinishedTrials(id).size());
      List<Cell> stored = store.cells(id);
      assertEquals(100_000, stored.size());
      assertEquals(cells.get(99_999), stored.get(99_999));
    }
    assertEquals(List.of(List.of(200_000L)), rows("SELECT count(*) FROM cell_params"));
  }

  @Test
  void anotherProcessCanWriteBetweenCalls() throws Exception {
    try (JdbcResultStore first = JdbcResultStore.open(db());
        JdbcResultStore second = JdbcResultStore.open(db())) {
      first.createExperiment(
          experiment("a", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      second.createExperiment(
          experiment("b", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      first.createExperiment(
          experiment("c", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);

      assertEquals(3, second.experiments().size());
    }
  }

  @Test
  void deletingAnExperimentCascades() throws Exception {
    try (JdbcResultStore store = JdbcResultStore.open(db())) {
      long id =
          store.createExperiment(
              experiment("gone", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
      store.commitTrial(TrialCommit.of(store.unfinishedTrials(id).get(0).trialId(), gib64(10)));
      store.query("DELETE FROM experiments WHERE id = " + id);
    }
    for (String table :
        List.of("cells", "cell_params", "trials", "samples", "settings", "cell_stats")) {
      assertEquals(List.of(List.of(0L)), rows("SELECT count(*) FROM " + table), table);
    }
  }

  @Test
  void pathsWithSpacesAndUriCharactersWork() {
    Path odd = dir.resolve("my results #1?.db");
    try (JdbcResultStore store = JdbcResultStore.open(odd)) {
      store.createExperiment(
          experiment("odd", 1, 0, List.of(cell(1, "bs", "1M"))), Fixtures.TOOL_VERSION);
    }
    try (ResultReader store = JdbcResultStore.openReadOnly(odd)) {
      assertEquals("odd", store.latest().orElseThrow().name());
    }
    assertTrue(Files.isRegularFile(odd));
  }

  @Test
  void readOnlyStoreIsOnlyAReaderAndRefusesWrites() {
    JdbcResultStore.open(db()).close();
    try (ResultReader store = JdbcResultStore.openReadOnly(db())) {
      assertFalse(store instanceof RunStore, "a read-only open has no writing side");
      TunelabException e =
          assertThrows(
              TunelabException.class,
              () -> store.query("INSERT INTO experiments (name) VALUES ('x')"));
      assertTrue(e.getMessage().contains("read"), e.getMessage());
      assertTrue(store.experiments().isEmpty());
    }
  }

  @Test
  void readOnlyOpenRefusesAMissingFileWithoutCreatingIt() {
    TunelabException e =
        assertThrows(TunelabException.class, () -> JdbcResultStore.openReadOnly(db()));

    assertEquals(TunelabException.BAD_INPUT, e.exitCode());
    assertEquals("no database at " + db() + " (give --db FILE or set TUNELAB_DB)", e.getMessage());
    assertFalse(Files.exists(db()));
  }

  @Test
  void unwritablePathsAreRefusedWithThePathAndTheReason() throws Exception {
    Path file = Files.writeString(dir.resolve("notes.txt"), "hello");
    Path underFile = file.resolve("tunelab.db");

    TunelabException e =
        assertThrows(TunelabException.class, () -> JdbcResultStore.open(underFile));
    assertEquals(TunelabException.BAD_INPUT, e.exitCode());
    assertEquals(
        "cannot write database " + underFile + ": " + file + " is not a directory", e.getMessage());

    e = assertThrows(TunelabException.class, () -> JdbcResultStore.checkWritable(dir));
    assertEquals("cannot write database " + dir + ": it is a directory", e.getMessage());

    Path missing = dir.resolve("nope/tunelab.db");
    e = assertThrows(TunelabException.class, () -> JdbcResultStore.checkWritable(missing));
    assertEquals(
        "cannot write database "
            + missing
            + ": directory "
            + dir.resolve("nope")
            + " does not exist",
        e.getMessage());
  }

  @Test
  void aDirectoryNobodyCanCreateFilesInIsRefused() {
    // Mode bits do not stop root, but /proc refuses new files to everyone.
    Path db = Path.of("/proc/sys/tunelab.db");

    TunelabException e = assertThrows(TunelabException.class, () -> JdbcResultStore.open(db));

    assertEquals(TunelabException.BAD_INPUT, e.exitCode());
    assertTrue(e.getMessage().startsWith("cannot write database " + db + ": "), e.getMessage());
    assertFalse(Files.exists(db));
  }

  @Test
  void aFileThatIsNoDatabaseIsRefused() throws Exception {
    Path junk = Files.writeString(dir.resolve("junk.db"), "this is not sqlite ".repeat(100));

    TunelabException e = assertThrows(TunelabException.class, () -> JdbcResultStore.open(junk));
    assertEquals(TunelabException.BAD_INPUT, e.exitCode());
    assertEquals("cannot write database " + junk + ": file is not a database", e.getMessage());
  }

  @Test
  void someoneElsesSqliteDatabaseIsLeftAlone() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db());
        Statement st = c.createStatement()) {
      st.executeUpdate("CREATE TABLE photos (id INTEGER)");
    }

    TunelabException w = assertThrows(TunelabException.class, () -> JdbcResultStore.open(db()));
    TunelabException r =
        assertThrows(TunelabException.class, () -> JdbcResultStore.openReadOnly(db()));
    assertTrue(
        w.getMessage().endsWith("it is an SQLite database but not tunelab's"), w.getMessage());
    assertEquals(db() + " is not a tunelab database", r.getMessage());
    assertEquals(List.of(List.of("photos")), rows("SELECT name FROM sqlite_master"));
  }

  @Test
  void aDatabaseFromANewerTunelabIsRefused() throws Exception {
    JdbcResultStore.open(db()).close();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db());
        Statement st = c.createStatement()) {
      st.executeUpdate("INSERT INTO schema_version VALUES (999, 'V999__future.sql', 'x')");
    }

    TunelabException e = assertThrows(TunelabException.class, () -> JdbcResultStore.open(db()));
    assertEquals(TunelabException.BAD_INPUT, e.exitCode());
    assertTrue(e.getMessage().contains("schema version 999"), e.getMessage());
    assertThrows(TunelabException.class, () -> JdbcResultStore.openReadOnly(db()));
  }

  private List<List<Object>> rows(String sql) throws SQLException {
    return Fixtures.rows(db(), sql);
  }
}
