package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tunelab.run.SshConnector;
import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import io.tunelab.testing.TestTime;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue as a team runs it, on a real server ({@code lab/postgres}): a worker whose lease ran
 * out is fenced off once another took its experiment over, an experiment no worker can run is held
 * instead of blocking the queue, the files a matrix reads travel with it, and an operator's cancel,
 * hold and release — none of it needing a hand-written statement against the queue.
 */
@Integration
class PostgresQueueTest {
  @RegisterExtension static final PostgresLab lab = new PostgresLab();
  @TempDir Path dir;

  @Test
  void aWorkerPausedPastItsLeaseIsFencedOffAndTheWorkerThatTookOverFinishesAlone()
      throws Exception {
    String url = lab.freshDatabase();
    Path m = matrix("fenced", 8, 2, "1");
    assertEquals(0, Cli.tunelab("submit", m.toString(), "--queue", "q", "--db", url).code());

    Process a = worker(url, "q", "bed", "a", "--lease", "3s").start();
    Process b = null;
    try {
      awaitAtLeast(url, "SELECT count(*) FROM trials WHERE status = 'ok'", 4);
      signal("STOP", a.pid());
      // Its lease runs out on the server's clock while it is stopped.
      awaitAtLeast(
          url,
          "SELECT count(*) FROM queue WHERE lease_until < (extract(epoch FROM"
              + " clock_timestamp()) * 1000)::bigint",
          1);
      // Same testbed name, an agent state of its own: the takeover a team would see.
      b = worker(url, "q", "bed", "b", "--drain").start();
      assertTrue(b.waitFor(TestTime.seconds(300), TimeUnit.SECONDS));
      String outB = log("bed", "b");
      assertEquals(0, b.exitValue(), outB);
      assertTrue(outB.contains("claimed before: resuming it"), outB);
      assertEquals(List.of("finished"), row(url, "SELECT status FROM experiments"));

      signal("CONT", a.pid());
      assertTrue(a.waitFor(TestTime.seconds(120), TimeUnit.SECONDS));
      String outA = log("bed", "a");
      assertEquals(3, a.exitValue(), outA);
      assertTrue(outA.contains("is no longer this worker's"), outA);
    } finally {
      signal("CONT", a.pid());
      a.destroyForcibly().waitFor(TestTime.seconds(60), TimeUnit.SECONDS);
      if (b != null) {
        b.destroyForcibly().waitFor(TestTime.seconds(60), TimeUnit.SECONDS);
      }
    }
    assertEquals(
        List.of("16", "16"),
        row(url, "SELECT count(*), sum(CASE WHEN status = 'ok' THEN 1 ELSE 0 END) FROM trials"));
    assertEquals(
        List.of("0"),
        row(
            url,
            "SELECT count(*) FROM (SELECT trial_id FROM trial_attempts WHERE status = 'ok'"
                + " GROUP BY trial_id HAVING count(*) > 1) doubled"));
    assertEquals(List.of("done", "2"), row(url, "SELECT state, token FROM queue"));
    Cli.Result later = Cli.tunelab("worker", "--queue", "q", "--drain", "--db", url);
    assertEquals(0, later.code(), later.all());
    assertTrue(later.out().contains("0 run here"), later.out());
    assertEquals(List.of("done", "2"), row(url, "SELECT state, claims FROM queue"));
  }

  @Test
  void aFioJobFileDeletedAfterSubmitRunsFromTheTextStoredWithTheExperiment() throws Exception {
    String url = lab.freshDatabase();
    Path job = dir.resolve("null.fio");
    String text = "[null]\nioengine=null\nrw=read\nbs=4k\nsize=4m\n";
    Files.writeString(job, text);
    Path m = dir.resolve("jobfile.yaml");
    Files.writeString(m, "name: jobfile\nrepeat: 2\nworkload:\n  fio:\n    jobfile: null.fio\n");
    assertEquals(0, Cli.tunelab("submit", m.toString(), "--queue", "q", "--db", url).code());
    Files.delete(job);

    Process w = worker(url, "q", "bed", "a", "--drain").start();
    assertTrue(w.waitFor(TestTime.seconds(300), TimeUnit.SECONDS));
    String out = log("bed", "a");
    assertEquals(0, w.exitValue(), out);
    assertEquals(
        List.of("finished", "2"),
        row(
            url,
            "SELECT e.status, count(*) FROM experiments e JOIN trials t ON t.experiment_id ="
                + " e.id WHERE t.status = 'ok' GROUP BY e.status"));
    assertEquals(
        List.of("null.fio", "jobfile", text),
        row(url, "SELECT path, kind, content FROM experiment_files"));
  }

  @Test
  void anExperimentNoInventoryFitsIsHeldAfterThreeClaimsAndTheNextOneRuns() throws Exception {
    String url = lab.freshDatabase();
    Path poison = dir.resolve("poison.yaml");
    Files.writeString(
        poison, "name: poison\nroles:\n  server: nosuchhost\nworkload:\n  command: sleep 0\n");
    Path good = matrix("good", 1, 1, "0");
    assertEquals(0, Cli.tunelab("submit", poison.toString(), "--queue", "q", "--db", url).code());
    assertEquals(0, Cli.tunelab("submit", good.toString(), "--queue", "q", "--db", url).code());

    List<String> outs = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Cli.Result r = Cli.tunelab("worker", "--queue", "q", "--drain", "--db", url);
      outs.add(r.all());
      assertEquals(3, r.code(), r.all());
    }
    assertTrue(outs.get(0).contains("1 run here"), outs.get(0));
    Cli.Result last = Cli.tunelab("worker", "--queue", "q", "--drain", "--db", url);
    assertEquals(0, last.code(), last.all());
    assertTrue(last.out().contains("0 run here"), last.out());

    Cli.Result list = Cli.tunelab("queue", "list", "--format", "json", "--db", url);
    assertEquals(0, list.code(), list.all());
    JsonNode rows = new ObjectMapper().readTree(list.out()).get("queue");
    assertEquals(2, rows.size(), list.out());
    assertEquals("held", rows.get(0).get("state").asText(), list.out());
    assertEquals(3, rows.get(0).get("refusals").asInt(), list.out());
    assertTrue(rows.get(0).get("reason").asText().contains("nosuchhost"), list.out());
    assertEquals("done", rows.get(1).get("state").asText(), list.out());
    assertEquals("finished", rows.get(1).get("status").asText(), list.out());
    Cli.Result status = Cli.tunelab("status", "--db", url);
    assertTrue(status.out().contains("held (planned)"), status.out());
  }

  @Test
  void anOperatorHoldsReleasesAndCancelsAnExperimentAndNoWorkerTakesWhatIsNotQueued()
      throws Exception {
    String url = lab.freshDatabase();
    Path m = matrix("operated", 1, 1, "0");
    assertEquals(0, Cli.tunelab("submit", m.toString(), "--queue", "q", "--db", url).code());

    Cli.Result hold = Cli.tunelab("queue", "hold", "1", "--reason", "disk swap", "--db", url);
    assertEquals(0, hold.code(), hold.all());
    assertTrue(hold.out().contains("experiment 1 (operated): held"), hold.out());
    Cli.Result idle = Cli.tunelab("worker", "--queue", "q", "--drain", "--db", url);
    assertTrue(idle.out().contains("0 run here"), idle.all());
    Cli.Result table = Cli.tunelab("queue", "list", "--queue", "q", "--db", url);
    assertTrue(table.out().contains("disk swap"), table.out());

    Cli.Result again = Cli.tunelab("queue", "hold", "1", "--db", url);
    assertEquals(2, again.code(), again.all());
    assertTrue(again.err().contains("is held: only one that is"), again.all());

    assertEquals(0, Cli.tunelab("queue", "release", "1", "--db", url).code());
    assertEquals(List.of("queued", "0"), row(url, "SELECT state, refusals FROM queue"));
    assertEquals(0, Cli.tunelab("queue", "cancel", "1", "--db", url).code());
    Cli.Result none = Cli.tunelab("worker", "--queue", "q", "--drain", "--db", url);
    assertTrue(none.out().contains("0 run here"), none.all());
    assertEquals(
        List.of("cancelled", "planned"),
        row(
            url,
            "SELECT q.state, e.status FROM queue"
                + " q JOIN experiments e ON e.id = q.experiment_id"));
    Cli.Result unknown = Cli.tunelab("queue", "cancel", "42", "--db", url);
    assertEquals(2, unknown.code(), unknown.all());
  }

  @Test
  void aTestbedIsItsHostsNotItsName() throws Exception {
    String url = lab.freshDatabase();
    Path m = matrix("identity", 1, 1, "0");
    for (int i = 0; i < 2; i++) {
      assertEquals(0, Cli.tunelab("submit", m.toString(), "--queue", "q", "--db", url).code());
    }
    String here = InetAddress.getLocalHost().getHostName();
    Cli.Result ran =
        Cli.tunelab("worker", "--queue", "q", "--testbed", here, "--drain", "--db", url);
    assertEquals(0, ran.code(), ran.all());
    assertEquals(
        List.of("2", SshConnector.localAddress()),
        row(url, "SELECT count(*), min(address) FROM testbed_hosts"));

    // Two controllers that died mid-run, one of them on a testbed of the same name elsewhere.
    try (Connection c = lab.connect(PostgresLab.name(url));
        Statement st = c.createStatement()) {
      st.executeUpdate("UPDATE experiments SET status = 'running'");
      st.executeUpdate("UPDATE testbed_hosts SET address = '192.0.2.9:22' WHERE experiment_id = 2");
    }
    Cli.Result restore = Cli.tunelab("restore", "--db", url);
    assertEquals(0, restore.code(), restore.all());
    assertEquals(
        List.of("interrupted", "running"),
        List.of(
            row(url, "SELECT status FROM experiments WHERE id = 1").get(0),
            row(url, "SELECT status FROM experiments WHERE id = 2").get(0)));

    // An inventory whose file name is that testbed's name, without its host 192.0.2.9.
    Path inventory = dir.resolve(here + ".yaml");
    Files.writeString(inventory, "hosts:\n  cli1:\n    address: 127.0.0.2\n");
    Cli.Result refused =
        Cli.tunelab(
            "worker", "--queue", "q", "--hosts", inventory.toString(), "--drain", "--db", url);
    assertEquals(2, refused.code(), refused.all());
    assertTrue(
        refused.err().contains("experiment 2 ran on 192.0.2.9:22, which is not in this inventory"),
        refused.all());
    assertTrue(refused.err().contains("give this worker --testbed NAME"), refused.all());
    Cli.Result named =
        Cli.tunelab(
            "worker",
            "--queue",
            "q",
            "--hosts",
            inventory.toString(),
            "--testbed",
            "bench2",
            "--drain",
            "--db",
            url);
    assertEquals(0, named.code(), named.all());
  }

  private Path matrix(String name, int cells, int repeat, String seconds) throws Exception {
    return PostgresLab.sleepMatrix(dir, name, cells, repeat, seconds);
  }

  /** A worker JVM of testbed {@code testbed} whose agent keeps its state in a folder {@code as}. */
  private ProcessBuilder worker(String url, String queue, String testbed, String as, String... more)
      throws Exception {
    List<String> args =
        new ArrayList<>(List.of("worker", "--queue", queue, "--testbed", testbed, "--db", url));
    args.addAll(List.of(more));
    ProcessBuilder pb = Controller.tunelab(args.toArray(String[]::new));
    Path state = dir.resolve("agent-" + as);
    Files.createDirectories(state);
    pb.environment().put("TUNELAB_STATE", state.toString());
    pb.environment().put("PGPASSFILE", lab.pgpass());
    pb.environment().put("XDG_STATE_HOME", dir.resolve("xdg-state-" + as).toString());
    pb.directory(dir.toFile());
    return pb.redirectErrorStream(true).redirectOutput(dir.resolve(logName(testbed, as)).toFile());
  }

  private String log(String testbed, String as) throws Exception {
    return Files.readString(dir.resolve(logName(testbed, as)));
  }

  private static String logName(String testbed, String as) {
    return "worker-" + testbed + "-" + as + ".log";
  }

  private static void signal(String name, long pid) throws Exception {
    new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start().waitFor();
  }

  private static void awaitAtLeast(String url, String sql, int value) throws Exception {
    lab.awaitAtLeast(url, sql, value);
  }

  private static List<String> row(String url, String sql) throws SQLException {
    return lab.row(url, sql);
  }
}
