package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.TestTime;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code tunelab run} on the local host, as a JVM of its own: {@code tunelab restore} from
 * beside it refuses the host its agent holds and leaves the experiment alone; SIGTERM ends the run
 * as Ctrl-C does, its agent gone and its lock released. No knob: it needs no root and no lab.
 */
class LiveLocalRunTest {

  private static ProcessBuilder tunelab(Path dir, String... args) {
    List<String> argv = new ArrayList<>();
    argv.add(ProcessHandle.current().info().command().orElse("java"));
    argv.add("-cp");
    argv.add(System.getProperty("java.class.path"));
    argv.add("io.tunelab.cli.Main");
    argv.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().put("TUNELAB_STATE", dir.resolve("state").toString());
    // a live holder is refused at once rather than after the default 15 s
    pb.environment().put("TUNELAB_LOCK_WAIT", "0");
    pb.environment().put("TUNELAB_GRACE", "2");
    return pb;
  }

  private static String status(Path db) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("select status from experiments")) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  @Test
  void restoreRefusesTheLiveRunsHostAndSigtermEndsTheRunAsCtrlCDoes(@TempDir Path dir)
      throws Exception {
    Path matrix = dir.resolve("live.yaml");
    Files.writeString(matrix, "name: live\nrepeat: 1\nworkload:\n  command: sleep 60\n");
    Path out = dir.resolve("run.out");
    Path db = dir.resolve("tunelab.db");
    Process run = tunelab(dir, "run", matrix.toString()).redirectOutput(out.toFile()).start();
    try {
      Path pid = dir.resolve("state/jobs/1/pid");
      assertTrue(
          TestTime.poll(
              Duration.ofSeconds(60),
              Duration.ofMillis(50),
              () -> Files.exists(pid) && Files.size(pid) > 0),
          "the trial never started: " + Files.readString(out));
      String agent = Files.readString(dir.resolve("state/lock/pid")).strip();

      Process restore = tunelab(dir, "restore").start();
      String said = new String(restore.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(restore.waitFor(TestTime.seconds(60), TimeUnit.SECONDS), "restore hung");

      assertEquals(3, restore.exitValue(), said);
      assertTrue(said.contains("host local: "), said);
      assertTrue(said.contains("a live agent (pid " + agent + ", serve"), said);
      assertFalse(said.contains("ended a process"), said);
      assertEquals("running", status(db), said);
      assertTrue(run.isAlive(), "the run goes on: " + Files.readString(out));

      run.destroy(); // SIGTERM
      assertTrue(run.waitFor(TestTime.seconds(60), TimeUnit.SECONDS), "the run did not end");
      String log = Files.readString(out);
      assertTrue(log.contains("interrupted: stopping the workload, restoring every host"), log);
      assertTrue(
          TestTime.poll(
              Duration.ofSeconds(10),
              Duration.ofMillis(50),
              () -> !Files.exists(dir.resolve("state/lock"))),
          "the agent lock is released: " + log);
      // The lock goes as the agent's last act: its exit follows a moment later.
      assertTrue(
          TestTime.poll(
              Duration.ofSeconds(10),
              Duration.ofMillis(50),
              () ->
                  !ProcessHandle.of(Long.parseLong(agent))
                      .map(ProcessHandle::isAlive)
                      .orElse(false)),
          "the run's agent is gone");
    } finally {
      run.destroyForcibly();
    }
  }
}
