package io.tunelab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.report.Studies;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.Fixtures;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import io.tunelab.testing.RepoFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tunelab import}: experiments of other files, once each, whole, comparable. */
class ImportTest {
  /** What an experiment's rows say, without the ids a copy may change. */
  private static final String CONTENT =
      "SELECT c.ordinal, c.label, t.rep, t.seq, t.status, t.error, s.job, s.metric, s.value"
          + " FROM trials t JOIN cells c ON c.id = t.cell_id"
          + " LEFT JOIN samples s ON s.trial_id = t.id"
          + " WHERE t.experiment_id = %d ORDER BY t.seq, s.job, s.metric";

  @TempDir Path dir;

  private Path studies(String name) {
    Path db = dir.resolve(name);
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      Studies.nfs(store);
      Studies.iscsi(store);
    }
    return db;
  }

  private Path target() {
    Path db = dir.resolve("team.db");
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      Studies.readerVsWriter(store);
    }
    return db;
  }

  private static Cli.Result importInto(Path db, Path file) {
    return Cli.tunelab("import", "--db", db.toString(), file.toString());
  }

  @Test
  void importingAFileTwiceAddsItsExperimentsOnceAndWhole() throws Exception {
    Path night = studies("night-1.db");
    Path team = target();

    Cli.Result first = importInto(team, night);
    assertEquals(0, first.code(), first.all());
    assertEquals(
        "experiment 1 'nfs-writeback' (finished, 27 trials): added as experiment 2\n"
            + "experiment 2 'nfs-writeback' (finished, 27 trials): added as experiment 3\n"
            + "experiment 3 'iscsi-readahead' (interrupted, 24 trials): added as experiment 4\n"
            + night
            + ": 3 added, 0 already here, 0 left out\n",
        first.out());
    Cli.Result again = importInto(team, night);
    assertEquals(0, again.code(), again.all());
    assertTrue(again.out().endsWith(": 0 added, 3 already here, 0 left out\n"), again.out());
    assertTrue(again.out().contains("(interrupted, 24 trials): already here as experiment 4"));

    assertEquals(4L, rows(team, "SELECT count(*) FROM experiments").get(0).get(0));
    for (int i = 1; i <= 3; i++) {
      List<List<Object>> there = rows(night, CONTENT.formatted(i));
      assertTrue(there.size() > 20);
      assertEquals(there, rows(team, CONTENT.formatted(i + 1)));
    }
    for (String table : List.of("settings", "trial_attempts", "cell_stats", "hosts", "events")) {
      assertEquals(
          rows(night, "SELECT count(*) FROM " + table),
          rows(team, "SELECT count(*) FROM " + table + " WHERE " + owner(table) + " > 1"),
          table);
    }
    assertEquals(
        rows(night, "SELECT uuid FROM experiments ORDER BY id"),
        rows(team, "SELECT uuid FROM experiments WHERE id > 1 ORDER BY id"));
  }

  private static String owner(String table) {
    return switch (table) {
      case "hosts", "events" -> "experiment_id";
      case "cell_stats" -> "(SELECT experiment_id FROM cells WHERE id = cell_id)";
      default -> "(SELECT experiment_id FROM trials WHERE id = trial_id)";
    };
  }

  @Test
  void experimentsFromTwoFilesCompareAsIfRunInOne() throws Exception {
    Path testbed1 = studies("testbed-1.db");
    Path testbed2 = studies("testbed-2.db");
    Path team = target();
    assertEquals(0, importInto(team, testbed1).code());
    assertEquals(0, importInto(team, testbed2).code());

    // The base kernel from the first file (now 2), the new one from the second (now 6).
    Cli.Result r = Cli.tunelab("compare", "--db", team.toString(), "2", "6");
    assertEquals(0, r.code(), r.all());
    String golden = RepoFiles.read(RepoFiles.testResources("compare").resolve("nfs-kernels.txt"));
    assertEquals(
        golden
            .replace("base: experiment 1 ", "base: experiment 2 ")
            .replace("new:  experiment 2 ", "new:  experiment 6 "),
        r.out());
  }

  @Test
  void aFileOfAnOlderTunelabGetsTheSameUuidsAsItsMigratedCopy() throws Exception {
    Path old = studies("old.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + old);
        Statement st = c.createStatement()) {
      for (String table : List.of("events", "boots", "trial_attempts")) {
        st.executeUpdate("DROP INDEX " + table + "_by_key");
        st.executeUpdate("ALTER TABLE " + table + " DROP COLUMN idem");
      }
      st.executeUpdate("DROP INDEX samples_by_trial");
      for (String table : List.of("samples", "variables", "trial_flags")) {
        st.executeUpdate("ALTER TABLE " + table + " DROP COLUMN pos");
      }
      st.executeUpdate("CREATE INDEX samples_by_trial ON samples (trial_id, job, metric)");
      st.executeUpdate("DROP TABLE experiment_files");
      st.executeUpdate("DROP TABLE testbed_hosts");
      st.executeUpdate("DROP TABLE workers");
      st.executeUpdate("DROP TABLE queue");
      st.executeUpdate("DROP TABLE search_rounds");
      st.executeUpdate("ALTER TABLE experiments DROP COLUMN testbed");
      st.executeUpdate("ALTER TABLE experiments DROP COLUMN repeat_compare");
      st.executeUpdate("DROP INDEX experiments_by_uuid");
      st.executeUpdate("ALTER TABLE experiments DROP COLUMN uuid");
      st.executeUpdate("DELETE FROM schema_version WHERE version >= 9");
    }
    Path copy = dir.resolve("old-copy.db");
    Files.copy(old, copy);
    Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-------"));
    Path team = target();

    assertTrue(importInto(team, old).out().endsWith(": 3 added, 0 already here, 0 left out\n"));
    assertTrue(importInto(team, old).out().endsWith(": 0 added, 3 already here, 0 left out\n"));
    // Opened for writing, the copy is migrated: its experiments get the uuids derived above.
    JdbcResultStore.open(copy, Fixtures.CLOCK).close();
    Cli.Result r = importInto(team, copy);
    assertTrue(r.out().endsWith(": 0 added, 3 already here, 0 left out\n"), r.all());
  }

  @Test
  void severalFilesAreCheckedFirstAndImportedInTheOrderGiven() throws Exception {
    Path one = studies("one.db");
    Path two = studies("two.db");
    Path team = target();
    Path shared = studies("shared.db");
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rw-rw-r--"));

    Cli.Result refused =
        Cli.tunelab(
            "import", "--db", team.toString(), one.toString(), two.toString(), shared.toString());
    assertEquals(3, refused.code(), refused.all());
    assertEquals("", refused.out());
    assertEquals(1L, rows(team, "SELECT count(*) FROM experiments").get(0).get(0));
    Cli.Result missing =
        Cli.tunelab("import", "--db", team.toString(), one.toString(), "nowhere.db");
    assertEquals(2, missing.code(), missing.all());
    assertEquals(1L, rows(team, "SELECT count(*) FROM experiments").get(0).get(0));

    Cli.Result both =
        Cli.tunelab("import", "--db", team.toString(), one.toString(), two.toString());
    assertEquals(0, both.code(), both.all());
    assertTrue(
        both.out().contains(one + ": 3 added, 0 already here, 0 left out\n")
            && both.out().endsWith(two + ": 3 added, 0 already here, 0 left out\n"),
        both.out());
    assertTrue(both.out().contains("(interrupted, 24 trials): added as experiment 7"), both.out());
  }

  @Test
  void aRunningExperimentIsLeftOutAndSaidSo() throws Exception {
    Path night = dir.resolve("running.db");
    long running;
    try (JdbcResultStore store = JdbcResultStore.open(night, Fixtures.CLOCK)) {
      Studies.readerVsWriter(store);
      running = Studies.iscsi(store);
      store.setExperimentStatus(running, ExperimentStatus.RUNNING);
    }
    Path team = dir.resolve("team.db");

    Cli.Result r = importInto(team, night);
    assertEquals(1, r.code(), r.all());
    assertTrue(r.out().endsWith(": 1 added, 0 already here, 1 left out\n"), r.out());
    assertTrue(
        r.err().contains("experiment 2 'iscsi-readahead' (running, 24 trials): it is running"),
        r.err());
    assertEquals(1L, rows(team, "SELECT count(*) FROM experiments").get(0).get(0));
  }

  @Test
  void aFileSomeoneElseCouldHaveWrittenIsRefusedAndNothingIsCopied() throws Exception {
    Path night = studies("shared.db");
    Files.setPosixFilePermissions(night, PosixFilePermissions.fromString("rw-rw-rw-"));
    Path team = target();

    Cli.Result r = importInto(team, night);
    assertEquals(3, r.code(), r.all());
    assertTrue(r.err().contains("mode 0666"), r.err());
    assertEquals(1L, rows(team, "SELECT count(*) FROM experiments").get(0).get(0));
  }

  @Test
  void aFileTunelabWouldNotHaveWrittenIsRefusedBeforeAnythingIsCopied() throws Exception {
    Path team = target();
    List<List<Object>> before = rows(team, "SELECT count(*) FROM experiments");
    Map<String, List<String>> crafted = new LinkedHashMap<>();
    crafted.put(
        "trigger t_spy, which tunelab does not create",
        List.of("CREATE TRIGGER t_spy AFTER INSERT ON events BEGIN DELETE FROM trials; END"));
    crafted.put(
        "samples is a view where tunelab has a table",
        List.of("DROP TABLE samples", "CREATE VIEW samples AS SELECT rowid, * FROM settings"));
    crafted.put(
        "1 row(s) of trials with an id outside 1..9007199254740992",
        List.of(
            "UPDATE trials SET id = 9223372036854775000 WHERE id = (SELECT max(id) FROM trials)"));
    crafted.put(
        "row(s) of trials whose cell is not their experiment's",
        List.of(
            "UPDATE trials SET cell_id = (SELECT min(id) FROM cells WHERE experiment_id = 2)"
                + " WHERE experiment_id = 1"));
    int n = 0;
    for (Map.Entry<String, List<String>> c : crafted.entrySet()) {
      Path file = studies("crafted-" + ++n + ".db");
      try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + file);
          Statement st = db.createStatement()) {
        st.execute("PRAGMA foreign_keys = OFF");
        for (String sql : c.getValue()) {
          st.executeUpdate(sql);
        }
      }
      Cli.Result r = importInto(team, file);
      assertEquals(2, r.code(), c.getKey() + ": " + r.all());
      assertTrue(r.err().contains(c.getKey()), r.all());
      assertTrue(r.err().contains("nothing was imported"), r.all());
      assertEquals(before, rows(team, "SELECT count(*) FROM experiments"), c.getKey());
    }
  }

  private static List<List<Object>> rows(Path db, String sql) throws SQLException {
    return Fixtures.rows(db, sql);
  }
}
