package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.report.Studies;
import io.tunelab.store.Fixtures;
import io.tunelab.store.postgres.PostgresDatabase;
import io.tunelab.store.postgres.PostgresSchema;
import io.tunelab.store.postgres.PostgresUrl;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import io.tunelab.testing.RepoFiles;
import io.tunelab.testing.TestTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PostgreSQL store on a real server ({@code lab/postgres}): the schema SQLite has, imports once
 * each, and queries that read only.
 */
@Integration
class PostgresStoreTest {
  /** Each public view, ordered so that both engines give the rows in one order. */
  private static final List<String> VIEWS =
      List.of(
          "SELECT * FROM experiment_progress ORDER BY experiment_id",
          "SELECT * FROM cell_results ORDER BY cell_id, job, metric",
          "SELECT * FROM trial_samples ORDER BY trial_id, job, metric",
          "SELECT * FROM trial_settings ORDER BY trial_id, host, knob");

  @RegisterExtension static final PostgresLab lab = new PostgresLab();
  @TempDir Path dir;

  private Path studies(String name) {
    Path db = dir.resolve(name);
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      Studies.nfs(store);
      Studies.iscsi(store);
      Studies.readerVsWriter(store);
    }
    return db;
  }

  private static Cli.Result tunelab(String... args) {
    return Cli.tunelab(args);
  }

  @Test
  void everySavedQueryRunsOnBothEnginesAndGivesTheSameRows() throws Exception {
    String url = lab.freshDatabase();
    Path sqlite = studies("saved-queries.db");
    assertEquals(0, tunelab("import", "--db", url, sqlite.toString()).code());
    List<String> differ = new ArrayList<>();
    try (var files = Files.list(RepoFiles.repoRoot().resolve("db/queries"))) {
      for (Path q : files.filter(f -> f.toString().endsWith(".sql")).sorted().toList()) {
        List<String> args =
            new ArrayList<>(List.of("query", "--format", "csv", "--file", q.toString()));
        String text = Files.readString(q);
        for (String[] p : new String[][] {{"experiment", "2"}, {"base", "1"}, {"new", "2"}}) {
          if (text.matches("(?s).*(?<!:):" + p[0] + "\\b.*")) {
            args.addAll(List.of("--param", p[0] + "=" + p[1]));
          }
        }
        List<String> onSqlite = new ArrayList<>(args);
        onSqlite.addAll(List.of("--db", sqlite.toString()));
        // Where the engines cannot share a spelling, PostgreSQL's is in a folder of its own.
        Path own = q.resolveSibling("postgresql").resolve(q.getFileName());
        List<String> onPostgres = new ArrayList<>(args);
        if (Files.exists(own)) {
          onPostgres.set(onPostgres.indexOf(q.toString()), own.toString());
        }
        onPostgres.addAll(List.of("--db", url));
        Cli.Result a = tunelab(onSqlite.toArray(String[]::new));
        Cli.Result b = tunelab(onPostgres.toArray(String[]::new));
        if (a.code() != 0 || b.code() != 0 || !numbers(a.out()).equals(numbers(b.out()))) {
          differ.add(
              q.getFileName()
                  + ":\n  sqlite "
                  + a.code()
                  + ": "
                  + a.all()
                  + "\n  postgres "
                  + b.code()
                  + ": "
                  + b.all());
        }
      }
    }
    assertEquals(List.of(), differ, String.join("\n", differ));
  }

  /** {@code text} with each number written in its shortest form: 1.00 and 1 are one value. */
  private static String numbers(String text) {
    return java.util.regex.Pattern.compile("-?\\d+(\\.\\d+)?")
        .matcher(text)
        .replaceAll(m -> new java.math.BigDecimal(m.group()).stripTrailingZeros().toPlainString());
  }

  @Test
  void theSchemaHasSqlitesTablesViewsAndColumns() throws Exception {
    String url = lab.freshDatabase();
    Path sqlite = studies("empty-check.db");
    assertEquals(0, tunelab("import", "--db", url, sqlite.toString()).code());

    TreeMap<String, List<String>> theirs = new TreeMap<>();
    for (List<Object> row :
        Fixtures.rows(
            sqlite,
            "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p"
                + " WHERE m.type IN ('table', 'view') AND m.name <> 'sqlite_sequence'"
                + " ORDER BY m.name, p.cid")) {
      theirs.computeIfAbsent((String) row.get(0), k -> new ArrayList<>()).add((String) row.get(1));
    }
    TreeMap<String, List<String>> ours = new TreeMap<>();
    try (Connection c = lab.connect(PostgresLab.name(url));
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT table_name, column_name FROM information_schema.columns"
                    + " WHERE table_schema = 'public' ORDER BY table_name, ordinal_position")) {
      while (rs.next()) {
        ours.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
      }
    }
    assertEquals(theirs, ours);
  }

  @Test
  void everyViewAnswersAsOnSqliteAfterAnImportAndASecondImportAddsNothing() throws Exception {
    String url = lab.freshDatabase();
    Path night = studies("night.db");

    Cli.Result first = tunelab("import", "--db", url, night.toString());
    assertEquals(0, first.code(), first.all());
    assertTrue(first.out().endsWith(": 4 added, 0 already here, 0 left out\n"), first.out());
    Cli.Result again = tunelab("import", "--db", url, night.toString());
    assertEquals(0, again.code(), again.all());
    assertTrue(again.out().endsWith(": 0 added, 4 already here, 0 left out\n"), again.out());

    for (String view : VIEWS) {
      Cli.Result sqlite = tunelab("query", "--db", night.toString(), "--format", "csv", view);
      Cli.Result postgres = tunelab("query", "--db", url, "--format", "csv", view);
      assertEquals(0, postgres.code(), postgres.all());
      assertTrue(sqlite.out().lines().count() > 4, view);
      assertEquals(sqlite.out(), postgres.out(), view);
    }
  }

  @Test
  void reportsComparesAndExportsReadTheSameOnBothEngines() throws Exception {
    String url = lab.freshDatabase();
    Path night = studies("same.db");
    assertEquals(0, tunelab("import", "--db", url, night.toString()).code());

    for (List<String> command :
        List.of(
            List.of("report", "1"),
            List.of("report", "2", "--format", "md"),
            List.of("report", "3", "--format", "json"),
            List.of("compare", "1", "2"),
            List.of("export", "4", "--format", "csv"),
            List.of("status"))) {
      List<String> onSqlite = new ArrayList<>(command);
      onSqlite.addAll(List.of("--db", night.toString()));
      List<String> onPostgres = new ArrayList<>(command);
      onPostgres.addAll(List.of("--db", url));
      Cli.Result sqlite = tunelab(onSqlite.toArray(String[]::new));
      Cli.Result postgres = tunelab(onPostgres.toArray(String[]::new));
      assertTrue(sqlite.code() <= 1, sqlite.all());
      assertTrue(sqlite.out().lines().count() > 3, sqlite.out());
      assertEquals(sqlite.out(), postgres.out(), command.toString());
      assertEquals(sqlite.err(), postgres.err(), command.toString());
      assertEquals(sqlite.code(), postgres.code(), command.toString());
    }
  }

  @Test
  void twoImportsOfOneFileAtOnceAddItOnce() throws Exception {
    String url = lab.freshDatabase();
    Path night = studies("twice.db");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Callable<Cli.Result> one = () -> tunelab("import", "--db", url, night.toString());
      List<Future<Cli.Result>> both = pool.invokeAll(List.of(one, one));
      for (Future<Cli.Result> f : both) {
        assertEquals(0, f.get().code(), f.get().all());
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(4L, count(url, "SELECT count(*) FROM experiments"));
    assertEquals(
        count(url, "SELECT count(*) FROM trials"),
        (long) Fixtures.rows(night, "SELECT count(*) FROM trials").get(0).get(0));
  }

  @Test
  void aQueryThatWouldWriteIsRefusedAndNothingChanges() throws Exception {
    String url = lab.freshDatabase();
    assertEquals(0, tunelab("import", "--db", url, studies("q.db").toString()).code());
    long trials = count(url, "SELECT count(*) FROM trials");
    assertTrue(trials > 0);

    for (String write :
        List.of(
            "delete from trials",
            "with gone as (delete from trials returning id) select count(*) from gone",
            "select 1; commit; delete from trials",
            "select set_config('default_transaction_read_only', 'off', false);"
                + " delete from trials",
            "SELECT 1 AS a$x$; COMMIT; DELETE FROM trials; SELECT 1 AS b$x$",
            "SELECT E'\\''; COMMIT; DELETE FROM trials; -- '",
            "select pg_advisory_lock(1)")) {
      Cli.Result r = tunelab("query", "--db", url, write);
      assertEquals(2, r.code(), write + ": " + r.all());
    }
    Cli.Result cte =
        tunelab(
            "query",
            "--db",
            url,
            "with gone as (delete from trials returning id) select count(*) from gone");
    assertTrue(cte.err().contains("tunelab query is read-only"), cte.err());
    assertEquals(trials, count(url, "SELECT count(*) FROM trials"));

    Cli.Result typed =
        tunelab(
            "query",
            "--db",
            url,
            "select ordinal, label from cells where experiment_id = :e and label::text like"
                + " '%64M%' order by ordinal limit :n",
            "--param",
            "e=3",
            "--param",
            "n=2");
    assertEquals(0, typed.code(), typed.all());
    assertEquals(4, typed.out().lines().count(), typed.out());
  }

  @Test
  void aQueryOnAStoppedServerEndsWithinItsTimeoutAndTheLoginsLimit() throws Exception {
    String url = lab.freshDatabase();
    assertEquals(0, tunelab("import", "--db", url, studies("q.db").toString()).code());
    List<Long> stopped = lab.serverProcesses();
    Cli.Result r;
    long took;
    try {
      LoopDisk.sh(
          "kill -STOP "
              + String.join(" ", stopped.stream().map(String::valueOf).toList())
              + " || true");
      long t0 = System.nanoTime();
      r = tunelab("query", "--db", url, "--timeout", "5s", "select 1");
      took = (System.nanoTime() - t0) / 1_000_000;
    } finally {
      LoopDisk.sh(
          "kill -CONT "
              + String.join(" ", stopped.stream().map(String::valueOf).toList())
              + " || true");
    }
    assertEquals(3, r.code(), r.all());
    assertTrue(r.err().contains("cannot connect to database"), r.err());
    assertTrue(took < TestTime.millis(90_000), "query gave up after " + took + " ms");
  }

  @Test
  void aTransactionAfterTheServerRestartedRunsAgainOnANewConnection() throws Exception {
    String url = lab.freshDatabase();
    try (PostgresDatabase db =
        PostgresSchema.openWritable(PostgresUrl.parse(url, Map.of()), Map.of(), Fixtures.CLOCK)) {
      long before = db.transaction("count", PostgresStoreTest::experiments);
      LoopDisk.sh(Lab.root().resolve("lab/postgres") + " restart");
      // The connection the database held died with the server; the work runs on a new one.
      assertEquals(before, db.transaction("count again", PostgresStoreTest::experiments));
    }
  }

  private static long experiments(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM experiments")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void aPasswordInTheUrlIsRefusedBeforeAnythingConnects() {
    Cli.Result r =
        tunelab("query", "--db", "postgresql://tunelab:hunter2@127.0.0.1:1/tunelab", "select 1");
    assertEquals(2, r.code(), r.all());
    assertTrue(!r.all().contains("hunter2"), r.all());
    assertTrue(r.err().contains("~/.pgpass"), r.err());
  }

  private static long count(String url, String sql) throws SQLException {
    try (Connection c = lab.connect(PostgresLab.name(url));
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
