package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.tab;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import io.tunelab.agents.AgentHarness.Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The long-lived {@code serve} mode: framing, staying up, the lock. */
class ServeTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void oneProcessAnswersManyRequestsUntilStdinCloses(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("read_ahead_kb", "128");
    Server server = agent.serve();

    Result hello = server.request("hello");
    Result read = server.request("read", knob.toString(), agent.knobPath("nope").toString());
    Result unknown = server.request("bogus");
    Result apply = server.request("apply", tab("save", knob), tab("set", knob, "512"));
    Result helloAgain = server.request("hello");

    assertEquals(List.of(tab("agent", 1), tab("pid", server.pid())), hello.lines());
    assertEquals(0, read.rc());
    assertEquals(
        List.of(tab("rw", knob, "128"), tab("missing", agent.knobPath("nope"), "")), read.lines());
    assertEquals(2, unknown.rc());
    assertEquals(List.of(), unknown.lines());
    assertTrue(server.stderr().contains("unknown verb: bogus"), server.stderr());
    assertEquals(List.of(tab("eff", knob, "512")), apply.lines());
    assertEquals(hello.lines(), helloAgain.lines());
    assertTrue(server.isAlive());
    assertTrue(Files.isDirectory(agent.state().resolve("lock")));

    assertEquals(0, server.closeAndWait());
    assertFalse(Files.exists(agent.state().resolve("lock")), "lock released on exit");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aBadHeaderGetsStatus2AndTheLoopGoesOn(String shell, @TempDir Path dir) {
    try (Server server = new AgentHarness(shell, dir).serve()) {
      server.sendRaw("hello two");
      Result bad = server.await();
      Result hello = server.request("hello");

      assertEquals(2, bad.rc());
      assertEquals(0, hello.rc());
      assertEquals(2, hello.lines().size());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aSequenceNumberIsEchoedInTheStatusLine(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("read_ahead_kb", "128");
    try (Server server = agent.serve()) {
      server.sendRaw("read 1 41\n" + knob);
      List<String> read = server.awaitRaw();
      server.sendRaw("bogus 0 42");
      List<String> unknown = server.awaitRaw();
      server.sendRaw("sync 0 9000000000");
      List<String> big = server.awaitRaw();

      assertEquals(List.of("|" + tab("rw", knob, "128"), "$ 0 41"), read);
      assertEquals(List.of("$ 2 42"), unknown);
      assertEquals(List.of("$ 0 9000000000"), big);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void withoutASequenceNumberTheStatusLineHasNone(String shell, @TempDir Path dir) {
    try (Server server = new AgentHarness(shell, dir).serve()) {
      server.sendRaw("sync 0");
      List<String> counted = server.awaitRaw();
      server.sendRaw("sync");
      List<String> bare = server.awaitRaw();
      server.sendRaw("sync 0 7");
      List<String> numbered = server.awaitRaw();

      assertEquals(List.of("$ 0"), counted);
      assertEquals(List.of("$ 0"), bare);
      assertEquals(List.of("$ 0 7"), numbered);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aBadSequenceNumberIsABadHeader(String shell, @TempDir Path dir) {
    try (Server server = new AgentHarness(shell, dir).serve()) {
      server.sendRaw("sync 0 x");
      List<String> notANumber = server.awaitRaw();
      server.sendRaw("sync 0 1 2");
      List<String> twoNumbers = server.awaitRaw();
      server.sendRaw("sync two 5");
      List<String> badCount = server.awaitRaw();
      server.sendRaw("sync 0 6");
      List<String> after = server.awaitRaw();

      assertEquals(List.of("$ 2"), notANumber);
      assertEquals(List.of("$ 2"), twoNumbers);
      assertEquals(List.of("$ 2 5"), badCount);
      assertEquals(List.of("$ 0 6"), after);
      assertTrue(server.stderr().contains("bad request header"), server.stderr());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void sigintIsLeftToTheController(String shell, @TempDir Path dir)
      throws IOException, InterruptedException {
    try (Server server = new AgentHarness(shell, dir).serve()) {
      server.request("hello");

      Process kill = new ProcessBuilder("kill", "-INT", String.valueOf(server.pid())).start();
      assertTrue(kill.waitFor(Tools.millis(5000), TimeUnit.MILLISECONDS));
      assertEquals(0, kill.exitValue());

      // The signal was queued before this request: an answer means the agent handled it and lived.
      assertEquals(0, server.request("hello").rc());
      assertTrue(server.isAlive());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aSecondServeIsRefusedWhileTheFirstLives(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    try (Server first = agent.serve()) {
      first.request("hello");

      Result second = agent.call("serve");

      assertEquals(3, second.rc());
      assertEquals(List.of(), second.lines());
      assertTrue(second.stderr().contains("pid " + first.pid()), second.stderr());
      assertEquals(0, first.request("hello").rc());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aStaleLockIsTakenOver(String shell, @TempDir Path dir)
      throws IOException, InterruptedException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Path lock = Files.createDirectories(agent.createState().resolve("lock"));
    Files.writeString(lock.resolve("pid"), gone.pid() + "\n");

    try (Server server = agent.serve()) {
      Result hello = server.request("hello");

      assertEquals(0, hello.rc());
      assertEquals(server.pid() + "\n", Files.readString(lock.resolve("pid")));
      assertTrue(server.stderr().contains("stale lock"), server.stderr());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void oneShotCallsIgnoreTheLock(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    try (Server server = agent.serve()) {
      server.request("hello");

      Result hello = agent.call("hello");

      assertEquals(0, hello.rc(), hello.stderr());
      assertEquals(tab("pid", hello.pid()), hello.lines().get(1));
    }
  }
}
