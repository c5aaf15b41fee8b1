package io.tunelab.it;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import io.tunelab.testing.TestTime;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs, resumes and the queue on a real PostgreSQL server ({@code lab/postgres}): what a run stores
 * there reads back as it printed, a server restart mid-run loses and doubles nothing, and workers
 * share a queue and take up a dead one's experiment.
 */
@Integration
class PostgresRunTest {
  @RegisterExtension static final PostgresLab lab = new PostgresLab();
  @TempDir Path dir;

  private Path matrix(String name, int cells, int repeat, String seconds) throws Exception {
    return PostgresLab.sleepMatrix(dir, name, cells, repeat, seconds);
  }

  @Test
  void theQuickstartRunIntoPostgresReportsWhatItPrintedAndKeepsNothingAside() throws Exception {
    Lab.requireRoot();
    String url = lab.freshDatabase();

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
    assertFalse(
        Files.exists(keptTrials(null, url)),
        "no trial commit is kept aside while the server answers");
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
    Cli.Result r = run.get(TestTime.seconds(300), TimeUnit.SECONDS);

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
  void aCommitWhoseAnswerIsLostIsStoredOnceAndNoTrialRunsTwice() throws Exception {
    String url = lab.freshDatabase();
    Path m = matrix("lostanswer", 3, 2, "1");
    Path pgpass = anyPortPgpass();
    Process proxy =
        new ProcessBuilder(
                "python3",
                Lab.root().resolve("lab/pg-drop-commit").toString(),
                "0",
                Integer.toString(lab.port()))
            .redirectErrorStream(true)
            .start();
    try (BufferedReader said =
        new BufferedReader(new InputStreamReader(proxy.getInputStream(), UTF_8))) {
      String port = said.readLine().replace("listening ", "");
      // The proxy reads the protocol in the clear: TLS, which the lab's server offers, is off.
      String through = url.replace(":" + lab.port() + "/", ":" + port + "/") + "?sslmode=disable";
      ProcessBuilder pb = Controller.tunelab("run", m.toString(), "--db", through);
      pb.environment().put("PGPASSFILE", pgpass.toString());
      pb.environment().put("XDG_STATE_HOME", dir.resolve("xdg-state").toString());
      Process run = pb.redirectOutput(dir.resolve("lost.log").toFile()).start();
      try {
        awaitRow(url, "SELECT count(*) FROM trials WHERE status = 'ok'", "2");
        // The next COMMIT's answer never reaches the run: its connection is cut after the
        // server made the transaction durable.
        LoopDisk.sh("kill -USR1 " + proxy.pid());
        assertEquals("dropped the answer to a COMMIT", said.readLine());
        assertTrue(
            run.waitFor(TestTime.millis(120_000), TimeUnit.MILLISECONDS),
            "the run ends after its retried commit");
      } finally {
        run.destroyForcibly();
      }
      assertEquals(0, run.exitValue(), Files.readString(dir.resolve("lost.log")));
    } finally {
      proxy.destroy();
      proxy.waitFor(TestTime.millis(10_000), TimeUnit.MILLISECONDS);
    }
    assertStoredOnce(url, 6, 1);
  }

  @Test
  void aServerAwayPastTheWaitKeepsTheTrialAsideAndResumeStoresItOnce() throws Exception {
    String url = lab.freshDatabase();
    Path m = matrix("away", 3, 2, "1");
    Path state = dir.resolve("xdg-state");
    Path log = dir.resolve("away.log");
    Process run =
        controller(state, "run", m.toString(), "--db", url).redirectOutput(log.toFile()).start();
    try {
      awaitRow(url, "SELECT count(*) FROM trials WHERE status = 'ok'", "2");
      lab.stop();
      assertTrue(
          run.waitFor(TestTime.millis(120_000), TimeUnit.MILLISECONDS),
          "the run gives up once TUNELAB_DB_WAIT has passed");
    } finally {
      run.destroyForcibly();
      lab.start();
    }
    String out = Files.readString(log);
    assertEquals(3, run.exitValue(), out);
    Path kept = keptTrials(state, url);
    assertTrue(out.contains("the trial's measurements are kept in " + kept), out);
    assertEquals(1, jsonFiles(kept), out);

    Path again = dir.resolve("again.log");
    Process resume =
        controller(state, "resume", "1", "--db", url).redirectOutput(again.toFile()).start();
    assertTrue(resume.waitFor(TestTime.millis(120_000), TimeUnit.MILLISECONDS));
    String resumed = Files.readString(again);
    assertEquals(0, resume.exitValue(), resumed);
    assertTrue(resumed.contains("stored trial "), resumed);
    assertEquals(0, jsonFiles(kept), resumed);
    assertStoredOnce(url, 6, 2);
  }

  /**
   * tunelab in a process of its own that waits 3 s for the database and keeps trials in {@code
   * state}.
   */
  private ProcessBuilder controller(Path state, String... args) {
    ProcessBuilder pb = Controller.tunelab(args);
    pb.environment().put("PGPASSFILE", lab.pgpass());
    pb.environment().put("TUNELAB_DB_WAIT", "3s");
    pb.environment().put("XDG_STATE_HOME", state.toString());
    return pb;
  }

  private static long jsonFiles(Path dir) throws Exception {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".json")).count();
    }
  }

  @Test
  void aServerHungMidRunLosesAndDoublesNothing() throws Exception {
    String url = lab.freshDatabase();
    Path m = matrix("hung", 3, 2, "1");

    CompletableFuture<Cli.Result> run =
        CompletableFuture.supplyAsync(() -> Cli.tunelab("run", m.toString(), "--db", url));
    awaitRow(url, "SELECT count(*) FROM trials WHERE status = 'ok'", "2");
    List<Long> stopped = lab.serverProcesses();
    try {
      // A backend that has just ended is no longer there to stop: not a failure.
      LoopDisk.sh("kill -STOP " + join(stopped) + " || true");
      // Long enough that the run's next commit waits on a server that does not answer.
      Thread.sleep(TestTime.millis(8_000));
    } finally {
      LoopDisk.sh("kill -CONT " + join(stopped) + " || true");
    }
    Cli.Result r = run.get(TestTime.millis(300_000), TimeUnit.MILLISECONDS);

    assertEquals(0, r.code(), r.all());
    assertStoredOnce(url, 6, 1);
  }

  /**
   * Every trial ok once, with one attempt, one sample set and one trial event each, and one start
   * event per run or resume ({@code starts}).
   */
  private static void assertStoredOnce(String url, int trials, int starts) throws SQLException {
    String n = Integer.toString(trials);
    assertEquals(
        List.of(n, n),
        row(url, "SELECT count(*), sum(CASE WHEN status = 'ok' THEN 1 ELSE 0 END) FROM trials"));
    assertEquals(List.of(n), row(url, "SELECT count(*) FROM trial_attempts"));
    assertEquals(
        List.of(n, n),
        row(
            url,
            "SELECT count(*), count(DISTINCT trial_id) FROM samples"
                + " WHERE job = 'all' AND metric = 'seconds'"));
    assertEquals(List.of(n), row(url, "SELECT count(*) FROM events WHERE kind = 'trial'"));
    assertEquals(
        List.of(Integer.toString(starts)),
        row(url, "SELECT count(*) FROM events WHERE kind = 'start'"));
    assertEquals(List.of("finished"), row(url, "SELECT status FROM experiments"));
  }

  private static String join(List<Long> pids) {
    return String.join(" ", pids.stream().map(String::valueOf).toList());
  }

  /** The lab's password file with any port: a proxy in front of the server has its own. */
  private Path anyPortPgpass() throws Exception {
    String line = Files.readAllLines(Path.of(lab.pgpass())).get(0);
    String[] f = line.split(":", 5);
    Path file = dir.resolve("pgpass");
    Files.writeString(file, f[0] + ":*:*:" + f[3] + ":" + f[4] + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
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

  /** A race stores its rounds' cells, trials and states on the server as it draws them. */
  @Test
  void aSearchStoresItsRoundsOnTheServer() throws Exception {
    Lab.requireRoot();
    String url = lab.freshDatabase();
    try (LoopDisk disk = LoopDisk.create(dir, 16)) {
      String readAhead = disk.queue("read_ahead_kb");
      Path m = dir.resolve("race.yaml");
      Files.writeString(
          m,
          """
          name: race
          search: {objective: maximize mib_per_s, budget: 30, confirm: 3}
          matrix:
            local.block.DEV.read_ahead_kb: [128, 256, 512, 1024, 2048, 4096]
            local.block.DEV.max_sectors_kb: [64, 128, 256, 512]
          workload:
            command: SURFACE DEV --round ${rep}
            parser: metrics
          """
              .replace("SURFACE", Lab.root().resolve("bench/surface").toString())
              .replace("DEV", disk.dev));

      Cli.Result r = Cli.tunelab("run", m.toString(), "--db", url);

      assertEquals(0, r.code(), r.all());
      assertTrue(r.all().contains("search: winner cell "), r.all());
      assertEquals(readAhead, disk.queue("read_ahead_kb"));
      assertEquals(
          List.of("30", "30", "3"),
          row(
              url,
              "SELECT count(*), count(DISTINCT cell_id || '/' || rep),"
                  + " sum(CASE WHEN c.label = 'default' THEN 1 ELSE 0 END)"
                  + " FROM trials t JOIN cells c ON c.id = t.cell_id"));
      assertEquals(
          List.of("1"), row(url, "SELECT count(*) FROM search_rounds WHERE state = 'winner'"));
      Cli.Result settings = Cli.tunelab("settings", "--format", "tuned", "--db", url);
      assertEquals(0, settings.code(), settings.all());
      assertTrue(
          settings.out().contains("/sys/block/" + disk.dev + "/queue/read_ahead_kb="),
          settings.out());
    }
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
      pb.environment().put("XDG_STATE_HOME", dir.resolve("xdg-state").toString());
      Process run = pb.redirectOutput(dir.resolve("killed.log").toFile()).start();
      try {
        awaitRow(url, "SELECT count(*) FROM trials WHERE status = 'ok'", "2");
      } finally {
        run.destroyForcibly().waitFor(TestTime.seconds(60), TimeUnit.SECONDS);
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
    assertTrue(
        a.waitFor(TestTime.seconds(300), TimeUnit.SECONDS)
            && b.waitFor(TestTime.seconds(300), TimeUnit.SECONDS));

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
      first.destroyForcibly().waitFor(TestTime.seconds(60), TimeUnit.SECONDS);
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
    assertTrue(next.waitFor(TestTime.seconds(300), TimeUnit.SECONDS));
    String out = Files.readString(dir.resolve("worker-bed.log"));

    assertEquals(0, next.exitValue(), gone + out);
    assertTrue(out.contains("claimed before: resuming it"), out);
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
    // Trial commits a killed worker kept aside would stay here, not in the user's state.
    pb.environment().put("XDG_STATE_HOME", dir.resolve("xdg-state").toString());
    return pb.redirectOutput(dir.resolve("worker-" + testbed + ".log").toFile());
  }

  /**
   * Where a run keeps the trial commits the server at {@code url} refused: under {@code state}, or
   * this process's own state directory when null.
   */
  private static Path keptTrials(Path state, String url) {
    String own = System.getenv("XDG_STATE_HOME");
    Path base =
        state != null
            ? state
            : own != null ? Path.of(own) : Path.of(System.getProperty("user.home"), ".local/state");
    String name = url.replaceFirst("^postgresql://[^@]*@", "").replaceAll("[:/]", "_");
    return base.resolve("tunelab/pending").resolve(name);
  }

  private static void awaitRow(String url, String sql, String value) throws Exception {
    lab.awaitAtLeast(url, sql, Long.parseLong(value));
  }

  private static List<String> row(String url, String sql) throws SQLException {
    return lab.row(url, sql);
  }
}
