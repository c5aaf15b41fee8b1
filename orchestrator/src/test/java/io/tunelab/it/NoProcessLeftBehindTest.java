package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Integration;
import io.tunelab.testing.TestTime;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After every way a run can end, no process that tunelab started is left on the host. The
 * controller runs as its own JVM with an agent state directory of its own; every process the agent
 * starts inherits that {@code TUNELAB_STATE}, which is how they are counted.
 */
@Integration
class NoProcessLeftBehindTest {
  @TempDir Path dir;
  Path state;

  @BeforeEach
  void root() throws IOException {
    Lab.requireRoot();
    state = dir.resolve("state");
  }

  private Path matrix(String workload, String extra) throws IOException {
    Path m = dir.resolve("m.yaml");
    Files.writeString(
        m,
        "name: leftovers\nmatrix:\n  n: [1, 2]\nrepeat: 2\n"
            + extra
            + "workload:\n  command: "
            + workload
            + "\n");
    return m;
  }

  private ProcessBuilder tunelab(String... args) {
    ProcessBuilder pb = Controller.tunelab(args);
    Map<String, String> env = pb.environment();
    env.put("TUNELAB_STATE", state.toString());
    env.put("TUNELAB_GRACE", "2");
    pb.redirectOutput(dir.resolve("out-" + System.nanoTime() + ".txt").toFile());
    return pb;
  }

  private int runToEnd(String... args) throws Exception {
    Process p = tunelab(args).start();
    assertTrue(
        p.waitFor(TestTime.seconds(120), TimeUnit.SECONDS), "tunelab " + String.join(" ", args));
    return p.exitValue();
  }

  /** Starts a run and returns once a trial is running (its workload started). */
  private Process startAndWaitForATrial(Path m, Path db) throws Exception {
    Process p = tunelab("run", m.toString(), "--db", db.toString()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestTime.seconds(60));
    while (System.nanoTime() < deadline
        && tunelabProcesses().stream().noneMatch(c -> c.endsWith("sleep 30"))) {
      Thread.sleep(50);
    }
    return p;
  }

  /** Every live process whose environment carries this test's agent state directory. */
  private List<String> tunelabProcesses() throws IOException {
    byte[] marker = ("TUNELAB_STATE=" + state + "\0").getBytes(StandardCharsets.UTF_8);
    List<String> found = new ArrayList<>();
    long self = ProcessHandle.current().pid();
    try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path proc : procs) {
        try {
          byte[] env = Files.readAllBytes(proc.resolve("environ"));
          if (contains(env, marker) && Long.parseLong(proc.getFileName().toString()) != self) {
            String cmd =
                new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8)
                    .replace('\0', ' ');
            if (!cmd.contains("io.tunelab.cli.Main")) {
              found.add(proc.getFileName() + " " + cmd.trim());
            }
          }
        } catch (IOException | NumberFormatException gone) {
          // the process ended while we looked
        }
      }
    }
    return found;
  }

  private static boolean contains(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      if (i > 0 && hay[i - 1] != 0) {
        continue;
      }
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  /** Waits up to {@code seconds} for the count to reach 0, then asserts it. */
  private void assertNoneLeft(String how, int seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestTime.seconds(seconds));
    List<String> left = tunelabProcesses();
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(100);
      left = tunelabProcesses();
    }
    assertEquals(List.of(), left, how);
  }

  @Test
  void aNormalRunLeavesNothing() throws Exception {
    assertEquals(0, runToEnd("run", matrix("sleep 0.1", "").toString(), "--db", db()));
    assertNoneLeft("after a normal run", 5);
  }

  @Test
  void aFailedTrialLeavesNothing() throws Exception {
    assertEquals(1, runToEnd("run", matrix("sleep 0.1; exit 3", "").toString(), "--db", db()));
    assertNoneLeft("after failed trials", 5);
  }

  @Test
  void aTrialPastItsTimeoutLeavesNothing() throws Exception {
    Path m = dir.resolve("m.yaml");
    Files.writeString(
        m, "name: t\nworkload:\n  timeout: 1s\n  command: sh -c 'sleep 30 & sleep 30'\n");
    assertEquals(1, runToEnd("run", m.toString(), "--db", db()));
    assertNoneLeft("after a timeout", 5);
  }

  @Test
  void ctrlCLeavesNothing() throws Exception {
    Process p =
        startAndWaitForATrial(matrix("sh -c 'sleep 30 & sleep 30'", ""), dir.resolve("t.db"));
    new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
    assertTrue(p.waitFor(TestTime.seconds(30), TimeUnit.SECONDS));
    assertNoneLeft("after Ctrl-C", 5);
  }

  @Test
  void killNineLeavesNothingOnceTheGracePeriodHasPassed() throws Exception {
    Process p =
        startAndWaitForATrial(matrix("sh -c 'sleep 30 & sleep 30'", ""), dir.resolve("t.db"));
    p.destroyForcibly();
    assertTrue(p.waitFor(TestTime.seconds(10), TimeUnit.SECONDS));
    assertNoneLeft("after kill -9 and the agent's 2 s grace period", 15);
  }

  @Test
  void killNineThenRestoreLeavesNothing() throws Exception {
    Path db = dir.resolve("t.db");
    Process p = startAndWaitForATrial(matrix("sh -c 'sleep 30 & sleep 30'", ""), db);
    p.destroyForcibly();
    assertTrue(p.waitFor(TestTime.seconds(10), TimeUnit.SECONDS));
    runToEnd("restore", "--db", db.toString());
    assertNoneLeft("after kill -9 and restore", 5);
  }

  private String db() {
    return dir.resolve("t.db").toString();
  }
}
