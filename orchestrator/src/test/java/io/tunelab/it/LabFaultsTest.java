package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import io.tunelab.testing.SqliteQuery;
import io.tunelab.testing.TestTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults during a trial over the lab's real sshd (lab/lab): the host is reconnected to, the trial
 * runs again and every attempt is recorded; a host that does not come back stops the run for {@code
 * resume}. Each run is one cell of three trials of {@code sleep 3} on the server, with a knob on
 * each host; the fault hits the second trial.
 */
@Integration
class LabFaultsTest {
  private static final Path HOSTSIDE = Path.of("/var/tmp/tunelab-lab");
  static Map<String, String> env;
  @TempDir Path dir;
  private String readAhead;
  private String clientReadAhead;

  @BeforeAll
  static void up() throws Exception {
    Lab.requireRoot();
    lab("up");
    env = Lab.env();
  }

  @AfterAll
  static void down() throws Exception {
    if (env != null) {
      lab("down --force");
    }
  }

  @BeforeEach
  void originals() throws Exception {
    readAhead = serverReadAhead();
    clientReadAhead = readAhead("CLIENT_DISK");
  }

  @AfterEach
  void nothingLeftChanged() throws Exception {
    Files.deleteIfExists(fakeBootId());
    lab("up"); // a test that stopped the server's sshd leaves it running again
    assertEquals(readAhead, serverReadAhead(), "the server's read_ahead_kb is restored");
    assertEquals(clientReadAhead, readAhead("CLIENT_DISK"), "the client's is restored");
    assertFalse(Files.exists(HOSTSIDE.resolve("server/agent/journal")), "no journal left");
  }

  @Test
  void sshdKilledAndRestartedDuringATrial() throws Exception {
    Path db = dir.resolve("t.db");
    CompletableFuture<Cli.Result> run = start(db, "--reconnect", "30s");
    waitForTrial(db, 2);

    killServerSshd(true);
    Thread.sleep(2000);
    lab("up");
    Cli.Result r = run.get(TestTime.seconds(90), TimeUnit.SECONDS);

    assertEquals(0, r.code(), r.all());
    assertTrue(r.all().contains("host server reconnected after"), r.all());
    assertEquals(List.of("1 ok", "2 lost", "2 ok", "3 ok"), attempts(db), r.all());
    assertEquals(
        List.of(List.of("3")),
        SqliteQuery.rows(db, "select count(*) from trials where status = 'ok'"));
  }

  @Test
  void sshdStoppedForLongerThanTheKeepaliveIsNoticedAndReconnectedToOnceItContinues()
      throws Exception {
    Path db = dir.resolve("t.db");
    CompletableFuture<Cli.Result> run = start(db, "--keepalive", "1s", "--reconnect", "60s");
    waitForTrial(db, 2);

    List<Long> sshd = serverSshdProcesses();
    signal("STOP", sshd);
    Instant resumed;
    try {
      // four missed keepalives a second apart, and some slack
      Thread.sleep(8000);
    } finally {
      resumed = Instant.now();
      signal("CONT", sshd);
    }
    Cli.Result r = run.get(TestTime.seconds(90), TimeUnit.SECONDS);

    assertEquals(0, r.code(), r.all());
    assertEquals(List.of("1 ok", "2 lost", "2 ok", "3 ok"), attempts(db), r.all());
    String lostAt =
        SqliteQuery.rows(db, "select finished_at from trial_attempts where status = 'lost'")
            .get(0)
            .get(0);
    assertTrue(
        Instant.parse(lostAt).isBefore(resumed),
        "the lost host was noticed while sshd was stopped: " + lostAt + " vs " + resumed);
  }

  @Test
  void theAgentKilledMidTrialIsReplacedAndTheTrialRunsAgain() throws Exception {
    Path db = dir.resolve("t.db");
    CompletableFuture<Cli.Result> run = start(db);
    waitForTrial(db, 2);

    long agent = Long.parseLong(Files.readString(HOSTSIDE.resolve("server/agent/lock/pid")).trim());
    LoopDisk.sh("kill -KILL " + agent);
    Cli.Result r = run.get(TestTime.seconds(90), TimeUnit.SECONDS);

    assertEquals(0, r.code(), r.all());
    assertEquals(List.of("1 ok", "2 lost", "2 ok", "3 ok"), attempts(db), r.all());
    assertTrue(
        SqliteQuery.rows(db, "select error from trial_attempts where status = 'lost'")
            .get(0)
            .get(0)
            .contains("host server"),
        r.all());
  }

  @Test
  void aHostThatOnlyHoldsKnobsLostWhileAnotherRunsTheWorkloadMakesTheTrialRunAgain()
      throws Exception {
    Path db = dir.resolve("t.db");
    CompletableFuture<Cli.Result> run = start(db);
    waitForTrial(db, 2);

    LoopDisk.sh("kill -KILL " + agentPid("client"));
    Cli.Result r = run.get(TestTime.seconds(90), TimeUnit.SECONDS);

    assertEquals(0, r.code(), r.all());
    assertEquals(List.of("1 ok", "2 lost", "2 ok", "3 ok"), attempts(db), r.all());
    assertTrue(
        SqliteQuery.rows(db, "select error from trial_attempts where status = 'lost'")
            .get(0)
            .get(0)
            .startsWith("host client: the connection was lost during the trial"),
        r.all());
  }

  @Test
  void withoutRetriesALostTrialFailsAndTheRunGoesOn() throws Exception {
    Path db = dir.resolve("t.db");
    CompletableFuture<Cli.Result> run = startWith(db, "retries: 0\n");
    waitForTrial(db, 2);

    LoopDisk.sh("kill -KILL " + agentPid("server"));
    Cli.Result r = run.get(TestTime.seconds(90), TimeUnit.SECONDS);

    assertEquals(1, r.code(), r.all());
    assertEquals(List.of("1 ok", "2 lost", "3 ok"), attempts(db), r.all());
    List<List<String>> failed =
        SqliteQuery.rows(db, "select seq, error from trials where status = 'failed'");
    assertEquals("2", failed.get(0).get(0), failed.toString());
    assertTrue(
        failed.get(0).get(1).startsWith("a host was lost in each of 1 attempt(s) (retries: 0)"),
        failed.toString());
  }

  @Test
  void aHostThatDoesNotComeBackStopsTheRunWhichResumeFinishes() throws Exception {
    Path db = dir.resolve("t.db");
    CompletableFuture<Cli.Result> run = start(db, "--reconnect", "3s");
    waitForTrial(db, 2);

    killServerSshd(true);
    Cli.Result r = run.get(TestTime.seconds(90), TimeUnit.SECONDS);

    assertEquals(1, r.code(), r.all());
    assertFalse(r.all().contains("Exception"), r.all());
    assertTrue(r.all().contains("did not come back within 3s"), r.all());
    assertTrue(r.all().contains("tunelab resume 1"), r.all());
    assertEquals(clientReadAhead, readAhead("CLIENT_DISK"), "the client is restored");
    assertEquals(
        List.of(List.of("1", "ok"), List.of("2", "running"), List.of("3", "pending")),
        SqliteQuery.rows(db, "select seq, status from trials order by seq"));
    assertEquals(
        List.of(List.of("interrupted")), SqliteQuery.rows(db, "select status from experiments"));
    assertEquals(List.of("1 ok", "2 lost"), attempts(db));
    assertTrue(
        SqliteQuery.rows(db, "select error from trial_attempts where status = 'lost'")
            .get(0)
            .get(0)
            .contains("did not come back within 3s"));

    lab("up");
    Cli.Result resume = Cli.tunelab("resume", "1", "--hosts", inventory(), "--db", db.toString());

    assertEquals(0, resume.code(), resume.all());
    assertEquals(List.of("1 ok", "2 lost", "2 ok", "3 ok"), attempts(db));
    assertEquals(
        List.of(List.of("finished")), SqliteQuery.rows(db, "select status from experiments"));
  }

  @Test
  void aFakedRebootIsFoundRecordedAndTheSettingsAreWrittenAgain() throws Exception {
    Path db = dir.resolve("t.db");
    CompletableFuture<Cli.Result> run = start(db);
    waitForTrial(db, 2);

    fakeServerReboot("0badb007-0000-4000-8000-000000000002");
    Cli.Result r = run.get(TestTime.seconds(90), TimeUnit.SECONDS);

    assertEquals(0, r.code(), r.all());
    assertTrue(r.all().contains("host server rebooted (boot id"), r.all());
    assertEquals(List.of("1 ok", "2 lost", "2 ok", "3 ok"), attempts(db), r.all());
    assertTrue(
        SqliteQuery.rows(db, "select error from trial_attempts where status = 'lost'")
            .get(0)
            .get(0)
            .contains("-> 0badb007-0000-4000-8000-000000000002"));
    // written again by the retried trial, though the cell did not change
    assertEquals(
        List.of(List.of("1", "1"), List.of("2", "1"), List.of("3", "0")),
        SqliteQuery.rows(
            db,
            "select t.seq, s.written from settings s join trials t on t.id = s.trial_id"
                + " where s.host = 'server' and s.effective = s.requested order by t.seq"));
    assertEquals(
        List.of(List.of("0badb007-0000-4000-8000-000000000002")),
        SqliteQuery.rows(db, "select boot_id from hosts where host = 'server'"));
  }

  @Test
  void aRebootSetsTheOpenCellUpAgainWithFreshCapturesBeforeTheTrialRunsAgain() throws Exception {
    Path db = dir.resolve("t.db");
    Path ups = dir.resolve("setups");
    Path downs = dir.resolve("teardowns");
    Path seen = dir.resolve("seen");
    Files.createFile(seen);
    CompletableFuture<Cli.Result> run =
        startRunning(
            db,
            """
            cell_setup:
              - on: server
                run: echo up >> UPS && wc -l < UPS
                capture: token
            cell_teardown:
              - on: server
                run: echo down >> DOWNS
            """
                .replace("UPS", ups.toString())
                .replace("DOWNS", downs.toString()),
            "sleep 3 && echo ${token} >> " + seen);
    waitForTrial(db, 2);

    // A reboot took what the cell's steps made: the retried trial needs them made again.
    fakeServerReboot("0badb007-0000-4000-8000-000000000003");
    Cli.Result r = run.get(TestTime.seconds(90), TimeUnit.SECONDS);

    assertEquals(0, r.code(), r.all());
    assertTrue(r.all().contains("host server rebooted: setting the cell up again"), r.all());
    assertEquals(List.of("1 ok", "2 lost", "2 ok", "3 ok"), attempts(db), r.all());
    assertEquals(List.of("up", "up"), Files.readAllLines(ups), "cell_setup ran again");
    assertEquals(List.of("down", "down"), Files.readAllLines(downs), "and cell_teardown before");
    // trial 1 ran with the first setup's capture, the retried trial 2 and trial 3 with the second
    assertEquals(List.of("1", "2", "2"), Files.readAllLines(seen));
  }

  // ---------------------------------------------------------------------------------------------

  private CompletableFuture<Cli.Result> start(Path db, String... options) throws Exception {
    return startWith(db, "", options);
  }

  /** Runs the matrix, with {@code keys} (YAML lines) added at its top level. */
  private CompletableFuture<Cli.Result> startWith(Path db, String keys, String... options)
      throws Exception {
    return startRunning(db, keys, "sleep 3", options);
  }

  /** Runs the matrix, with {@code keys} added and {@code command} as its workload. */
  private CompletableFuture<Cli.Result> startRunning(
      Path db, String keys, String command, String... options) throws Exception {
    Path m = dir.resolve("faults.yaml");
    Files.writeString(
        m,
        keys
            + """
        name: lab-faults
        roles: {server: server, client: client}
        settings:
          server.block.SDISK.read_ahead_kb: 4096
          client.block.CDISK.read_ahead_kb: 2048
        repeat: 3
        workload:
          on: server
          command: COMMAND
        """
                .replace("SDISK", env.get("SERVER_DISK"))
                .replace("CDISK", env.get("CLIENT_DISK"))
                .replace("COMMAND", command));
    List<String> args =
        new ArrayList<>(
            List.of("run", m.toString(), "--hosts", inventory(), "--db", db.toString()));
    args.addAll(List.of(options));
    return CompletableFuture.supplyAsync(
        () -> {
          Cli.Result r = Cli.tunelab(args.toArray(String[]::new));
          // what the run printed, with its timings, in the test report
          System.out.println(r.all());
          return r;
        });
  }

  /**
   * What a reboot does to the server: its knob back to the boot default, a new boot id, every
   * process of the session gone (sshd itself comes back at once).
   */
  private void fakeServerReboot(String bootId) throws Exception {
    Files.writeString(
        Path.of("/sys/block", env.get("SERVER_DISK"), "queue/read_ahead_kb"), readAhead);
    Files.writeString(fakeBootId(), bootId + "\n");
    killServerSshd(false);
  }

  /** Waits until trial {@code seq} runs its workload (a second into it). */
  static void waitForTrial(Path db, int seq) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestTime.seconds(60));
    while (System.nanoTime() < deadline) {
      if (Files.exists(db)
          && !SqliteQuery.rows(
                  db, "select 1 from trials where seq = " + seq + " and status = 'running'")
              .isEmpty()) {
        Thread.sleep(1000);
        return;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("trial " + seq + " never started");
  }

  /** Every attempt as {@code "SEQ STATUS"}, in order. */
  static List<String> attempts(Path db) throws Exception {
    return SqliteQuery.rows(
            db,
            "select t.seq || ' ' || a.status from trial_attempts a join trials t"
                + " on t.id = a.trial_id order by t.seq, a.attempt")
        .stream()
        .map(row -> row.get(0))
        .toList();
  }

  /**
   * Ends every session of the server's sshd, the agent among them; with {@code listener}, it too.
   */
  private static void killServerSshd(boolean listener) throws Exception {
    ProcessHandle sshd = ProcessHandle.of(serverSshdPid()).orElseThrow();
    sshd.descendants().forEach(ProcessHandle::destroyForcibly);
    if (listener) {
      sshd.destroyForcibly();
      sshd.onExit().get(TestTime.seconds(10), TimeUnit.SECONDS);
    }
  }

  /** The server's sshd listener and its per-connection sshd processes (not the commands). */
  private static List<Long> serverSshdProcesses() throws Exception {
    ProcessHandle sshd = ProcessHandle.of(serverSshdPid()).orElseThrow();
    List<Long> pids = new ArrayList<>(List.of(sshd.pid()));
    sshd.descendants()
        .filter(
            p ->
                p.info()
                    .command()
                    .map(c -> Path.of(c).getFileName().toString().startsWith("sshd"))
                    .orElse(false))
        .forEach(p -> pids.add(p.pid()));
    return pids;
  }

  private static void signal(String name, List<Long> pids) throws Exception {
    LoopDisk.sh(
        "kill -"
            + name
            + " "
            + pids.stream().map(String::valueOf).collect(Collectors.joining(" ")));
  }

  private static long serverSshdPid() throws Exception {
    return Long.parseLong(Files.readString(Lab.root().resolve("lab/state/server/sshd.pid")).trim());
  }

  /** The serving agent of lab host {@code host}, from its lock. */
  private static long agentPid(String host) throws Exception {
    return Long.parseLong(Files.readString(HOSTSIDE.resolve(host + "/agent/lock/pid")).trim());
  }

  private static Path fakeBootId() {
    return HOSTSIDE.resolve("server/agent/fake-boot-id");
  }

  private static String serverReadAhead() throws Exception {
    return readAhead("SERVER_DISK");
  }

  /** The read-ahead of the lab's disk named by {@code disk} in lab/state/env. */
  private static String readAhead(String disk) throws Exception {
    return Files.readString(Path.of("/sys/block", env.get(disk), "queue/read_ahead_kb")).trim();
  }

  private static String inventory() {
    return Lab.root().resolve("lab/hosts.yaml").toString();
  }

  private static void lab(String verb) throws Exception {
    LoopDisk.sh(Lab.root().resolve("lab/lab") + " " + verb);
  }
}
