package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs, resumes and the queue on a real PostgreSQL server ({@code lab/postgres}): what a run stores
 * there reads back as it printed, a server restart mid-run loses and doubles nothing, and workers
 * share a queue and take up a dead one's experiment.
 */
@Integration
class PostgresRunTest {
  static PostgresLab lab;
  @TempDir Path dir;

  @BeforeAll
  static void up() throws Exception {
    lab = PostgresLab.up();
  }

  @AfterAll
  static void down() throws Exception {
    if (lab != null) {
      lab.close();
    }
  }

  /** {@code trials} trials of {@code sleep seconds}: two values of a parameter, repeated. */
  private Path matrix(String name, int cells, int repeat, String seconds) throws Exception {
    List<String> values = new ArrayList<>();
    for (int i = 1; i <= cells; i++) {
      values.add(Integer.toString(i));
    }
    Path m = dir.resolve(name + ".yaml");
    Files.writeString(
        m,
        "name: "
            + name
            + "\nmatrix:\n  n: ["
            + String.join(", ", values)
            + "]\nrepeat: "
            + repeat
            + "\nworkload:\n  command: sleep "
            + seconds
            + "\n");
    return m;
  }

  @Test
  void theQuickstartRunIntoPostgresReportsWhatItPrintedAndLeavesNoLocalCopy() throws Exception {
    Lab.requireRoot();
    String url = lab.freshDatabase();
    long spoolBefore = spoolFiles();

    Cli.Result run =
        Cli.tunelab("run", Lab.root().resolve("matrices/quickstart.yaml").toString(), "--db", url);

    assertEquals(0, run.code(), run.all());
    assertEquals(
        List.of("18", "18"),
        row(
            url,
            "SELECT count(*), sum(CASE WHEN status = 'ok'" + " THEN 1 ELSE 0 END) FROM trials"));
    assertEquals(
        List.of("6"),
        row(
            url,
            "SELECT count(*) FROM cell_stats WHERE job = 'all'"
                + " AND metric = 'mib_per_s' AND n = 3"));
    Cli.Result report = Cli.tunelab("report", "--db", url);
    assertEquals(0, report.code(), report.all());
    String printed = run.out().substring(run.out().indexOf("quickstart (experiment 1"));
    printed = printed.substring(0, printed.indexOf("\n" + "experiment 1 finished") + 1);
    assertTrue(printed.contains("IOPS"), printed);
    assertEquals(printed.strip(), report.out().strip());
    Cli.Result export = Cli.tunelab("export", "1", "--db", url);
    assertEquals(0, export.code(), export.all());
    assertEquals(18 * 12 + 1, export.out().lines().count(), "a header and every sample");
    assertEquals(spoolBefore, spoolFiles(), "the local copy is removed once the server has all");
  }

  @Test
  void aServerRestartThreeSecondsIntoAnEightTrialRunLosesAndDoublesNothing() throws Exception {
    String url = lab.freshDatabase();
    Path m = matrix("restart8", 4, 2, "1");

    CompletableFuture<Cli.Result> run =
        CompletableFuture.supplyAsync(() -> Cli.tunelab("run", m.toString(), "--db", url));
    // Three seconds in: the plan and the first trials are on the server.
    awaitRow(url, "SELECT count(*) FROM trials WHERE status = 'ok'", "2");
    LoopDisk.sh(Lab.root().resolve("lab/postgres") + " restart");
    Cli.Result r = run.get(5, TimeUnit.MINUTES);

    assertEquals(0, r.code(), r.all());
    assertEquals(
        List.of("8", "8", "8"),
        row(
            url,
            "SELECT count(*), count(DISTINCT t.id), sum(CASE WHEN t.status = 'ok' THEN 1 ELSE 0"
                + " END) FROM trials t"));
    assertEquals(List.of("8"), row(url, "SELECT count(*) FROM trial_attempts"));
    assertEquals(List.of("finished"), row(url, "SELECT status FROM experiments"));
    assertEquals(
        List.of("4"),
        row(
            url,
            "SELECT count(*) FROM cell_stats WHERE job = 'all'"
                + " AND metric = 'seconds' AND n = 2"));
  }

  @Test
  void aRunStoppedByMaxTimeIsResumedFromTheServer() throws Exception {
    String url = lab.freshDatabase();
    Path m = matrix("bounded", 3, 2, "1");

    Cli.Result first = Cli.tunelab("run", m.toString(), "--db", url, "--max-time", "2s");
    assertEquals(1, first.code(), first.all());
    assertTrue(first.out().contains("continue with: tunelab resume 1"), first.out());
    assertEquals(List.of("interrupted"), row(url, "SELECT status FROM experiments"));
    long done = Long.parseLong(row(url, "SELECT count(*) FROM trials WHERE status = 'ok'").get(0));
    assertTrue(done < 6, "some trials are left: " + done);

    Cli.Result again = Cli.tunelab("resume", "bounded", "--db", url);

    assertEquals(0, again.code(), again.all());
    assertEquals(
        List.of("6", "6"),
        row(url, "SELECT count(*), sum(CASE WHEN status = 'ok' THEN 1 ELSE 0 END) FROM trials"));
    assertEquals(List.of("6"), row(url, "SELECT count(*) FROM trial_attempts"));
    assertEquals(List.of("finished"), row(url, "SELECT status FROM experiments"));
    Cli.Result status = Cli.tunelab("status", "--db", url);
    assertTrue(status.out().contains(" 1  bounded  finished"), status.out());
  }

  @Test
  void restoreTearsDownWhatAKilledRunOnThisTestbedLeftAndResumeFinishesIt() throws Exception {
    Lab.requireRoot();
    String url = lab.freshDatabase();
    Path marker = dir.resolve("set-up");
    try (LoopDisk disk = LoopDisk.create(dir, 16)) {
      String readAhead = disk.queue("read_ahead_kb");
      Path m = dir.resolve("killed.yaml");
      Files.writeString(
          m,
          """
          name: killed
          matrix:
            local.block.DEV.read_ahead_kb: [1024, 2048, 4096]
          repeat: 2
          setup:
            - on: local
              run: touch MARKER
          teardown:
            - on: local
              run: rm MARKER
          workload:
            command: sleep 1
          """
              .replace("DEV", disk.dev)
              .replace("MARKER", marker.toString()));
      ProcessBuilder pb = Controller.tunelab("run", m.toString(), "--db", url);
      pb.environment().put("PGPASSFILE", lab.pgpass());
      pb.environment().put("XDG_CACHE_HOME", dir.resolve("cache").toString());
      Process run = pb.redirectOutput(dir.resolve("killed.log").toFile()).start();
      try {
        awaitRow(url, "SELECT count(*) FROM trials WHERE status = 'ok'", "2");
      } finally {
        run.destroyForcibly().waitFor(1, TimeUnit.MINUTES);
      }
      assertEquals(List.of("running"), row(url, "SELECT status FROM experiments"));
      assertTrue(Files.exists(marker));

      Cli.Result restore = Cli.tunelab("restore", "--db", url);

      assertEquals(0, restore.code(), restore.all());
      assertEquals(readAhead, disk.queue("read_ahead_kb"), restore.out());
      assertTrue(!Files.exists(marker), "the teardown ran: " + restore.out());
      assertTrue(restore.out().contains("experiment 1 (killed): teardown done"), restore.out());
      assertEquals(List.of("interrupted"), row(url, "SELECT status FROM experiments"));

      Cli.Result resume = Cli.tunelab("resume", "1", "--db", url);
      assertEquals(0, resume.code(), resume.all());
      assertEquals(
          List.of("6", "6"),
          row(url, "SELECT count(*), sum(CASE WHEN status = 'ok' THEN 1 ELSE 0 END) FROM trials"));
      assertEquals(readAhead, disk.queue("read_ahead_kb"));
      assertTrue(!Files.exists(marker));
    }
  }

  @Test
  void twoDrainingWorkersRunFourQueuedExperimentsEachOnce() throws Exception {
    String url = lab.freshDatabase();
    Path m = matrix("queued", 2, 1, "1");
    for (int i = 0; i < 4; i++) {
      Cli.Result s = Cli.tunelab("submit", m.toString(), "--queue", "nightly", "--db", url);
      assertEquals(0, s.code(), s.all());
    }
    assertEquals(
        List.of("4", "0"),
        row(
            url,
            "SELECT count(*), sum(CASE WHEN status <> 'planned'"
                + " THEN 1 ELSE 0 END) FROM experiments"));

    // Two testbeds: each worker's agent keeps its lock and journal in a directory of its own.
    Process a = worker(url, "nightly", "bed-a", "--drain").start();
    Process b = worker(url, "nightly", "bed-b", "--drain").start();
    assertTrue(a.waitFor(5, TimeUnit.MINUTES) && b.waitFor(5, TimeUnit.MINUTES));

    String outA = Files.readString(dir.resolve("worker-bed-a.log"));
    String outB = Files.readString(dir.resolve("worker-bed-b.log"));
    assertEquals(0, a.exitValue(), outA);
    assertEquals(0, b.exitValue(), outB);
    assertEquals(
        List.of("4", "8", "8"),
        row(
            url,
            "SELECT count(DISTINCT e.id), count(*), sum(CASE WHEN t.status = 'ok' THEN 1 ELSE 0"
                + " END) FROM experiments e JOIN trials t ON t.experiment_id = e.id"
                + " WHERE e.status = 'finished'"));
    assertEquals(List.of("8"), row(url, "SELECT count(*) FROM trial_attempts"));
    assertEquals(
        List.of("4", "1"),
        row(url, "SELECT count(*), max(claims) FROM queue" + " WHERE state = 'done'"));
    assertEquals(
        List.of("2"), row(url, "SELECT count(DISTINCT testbed) FROM experiments"), outA + outB);
    assertTrue(outA.matches("(?s).*nothing left for testbed bed-a; [1-3] run here.*"), outA);
    assertTrue(outB.matches("(?s).*nothing left for testbed bed-b; [1-3] run here.*"), outB);
    Cli.Result status = Cli.tunelab("status", "--db", url);
    assertTrue(status.out().contains("done (finished)  testbed bed-a"), status.out());
    assertTrue(status.out().matches("(?s).*workers:\n.*testbed bed-b  stopped.*"), status.out());
  }

  @Test
  void aDeadWorkersExperimentIsResumedByTheNextWorkerOfItsTestbed() throws Exception {
    String url = lab.freshDatabase();
    Path m = matrix("orphan", 3, 2, "1");
    assertEquals(0, Cli.tunelab("submit", m.toString(), "--queue", "q", "--db", url).code());

    Process first = worker(url, "q", "bed", "--lease", "2s").start();
    try {
      awaitRow(url, "SELECT count(*) FROM trials WHERE status = 'ok'", "2");
    } finally {
      first.destroyForcibly().waitFor(1, TimeUnit.MINUTES);
    }
    String gone = Files.readString(dir.resolve("worker-bed.log"));
    // Another testbed may not take it; once the lease has run out, this testbed's next may.
    Cli.Result other =
        Cli.tunelab("worker", "--queue", "q", "--testbed", "elsewhere", "--drain", "--db", url);
    assertEquals(0, other.code(), other.all());
    assertTrue(other.out().contains("0 run here"), other.out());
    awaitRow(
        url,
        "SELECT count(*) FROM queue WHERE lease_until < (extract(epoch FROM clock_timestamp())"
            + " * 1000)::bigint",
        "1");
    Process next = worker(url, "q", "bed", "--drain").start();
    assertTrue(next.waitFor(5, TimeUnit.MINUTES));
    String out = Files.readString(dir.resolve("worker-bed.log"));

    assertEquals(0, next.exitValue(), gone + out);
    assertTrue(out.contains("left by a worker that stopped: resuming it"), out);
    assertEquals(
        List.of("6", "6"),
        row(url, "SELECT count(*), sum(CASE WHEN status = 'ok' THEN 1 ELSE 0 END) FROM trials"));
    assertEquals(List.of("finished", "bed"), row(url, "SELECT status, testbed FROM experiments"));
    assertEquals(List.of("done", "2"), row(url, "SELECT state, claims FROM queue"));
  }

  /** {@code tunelab worker --queue …} as a JVM of its own, with an agent state of its testbed's. */
  private ProcessBuilder worker(String url, String queue, String testbed, String... more)
      throws Exception {
    List<String> args =
        new ArrayList<>(List.of("worker", "--queue", queue, "--testbed", testbed, "--db", url));
    args.addAll(List.of(more));
    ProcessBuilder pb = Controller.tunelab(args.toArray(String[]::new));
    Path state = dir.resolve("agent-" + testbed);
    Files.createDirectories(state);
    pb.environment().put("TUNELAB_STATE", state.toString());
    pb.environment().put("PGPASSFILE", lab.pgpass());
    // A killed worker's local copy stays behind: here, not in the user's cache.
    pb.environment().put("XDG_CACHE_HOME", dir.resolve("cache").toString());
    return pb.redirectOutput(dir.resolve("worker-" + testbed + ".log").toFile());
  }

  private static long spoolFiles() throws Exception {
    Path spool = Path.of(System.getProperty("user.home"), ".cache/tunelab/spool");
    if (!Files.isDirectory(spool)) {
      return 0;
    }
    try (Stream<Path> files = Files.list(spool)) {
      return files.count();
    }
  }

  private static void awaitRow(String url, String sql, String value) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (System.nanoTime() < deadline) {
      try {
        if (Integer.parseInt(row(url, sql).get(0)) >= Integer.parseInt(value)) {
          return;
        }
      } catch (SQLException notYet) {
        // the schema is not there yet
      }
      Thread.sleep(50);
    }
    throw new AssertionError("never " + value + ": " + sql);
  }

  private static List<String> row(String url, String sql) throws SQLException {
    try (Connection c = lab.connect(PostgresLab.name(url));
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      List<String> cols = new ArrayList<>();
      if (rs.next()) {
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          cols.add(rs.getString(i));
        }
      }
      return cols;
    }
  }
}
