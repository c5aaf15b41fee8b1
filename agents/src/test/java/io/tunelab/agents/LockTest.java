package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.read;
import static io.tunelab.agents.AgentHarness.tab;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import io.tunelab.agents.AgentHarness.Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One lock for serve and every one-shot call that writes; request sequence numbers. */
class LockTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aLockWithoutAReadablePidIsNeverTakenOver(String shell, @TempDir Path dir)
      throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir).env("TUNELAB_LOCK_WAIT", "0");
    Path knob = agent.knob("read_ahead_kb", "128");
    // what a full disk made of a lock before its writes were checked: the directory, no pid
    Path lock = Files.createDirectories(agent.createState().resolve("lock"));
    Files.writeString(lock.resolve("pid"), "");
    Files.writeString(lock.resolve("boot"), AgentHarness.bootId() + "\n");

    Result apply = agent.call("apply", tab("set", knob, "4096"));

    assertEquals(3, apply.rc(), apply.stderr());
    assertTrue(apply.stderr().contains("has no readable pid"), apply.stderr());
    assertEquals("128\n", read(knob));
    assertEquals("", read(lock.resolve("pid")));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void restoreUnderALiveServeIsRefusedNamingPidAndExperiment(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir).env("TUNELAB_EXPERIMENT", "nightly#42");
    Path knob = agent.knob("read_ahead_kb", "128");
    try (Server server = agent.serve()) {
      assertEquals(0, server.request("apply", tab("set", knob, "4096")).rc());
      String journal = read(agent.journal());
      agent.env("TUNELAB_LOCK_WAIT", "0");

      Result restore = agent.call("restore");
      Result apply = agent.call("apply", tab("set", knob, "1"));
      Result run = agent.call("run", tab("job", "x"), tab("arg", "true"));

      for (Result refused : List.of(restore, apply, run)) {
        assertEquals(3, refused.rc(), refused.stderr());
        assertEquals(List.of(), refused.lines());
        assertTrue(refused.stderr().contains("pid " + server.pid()), refused.stderr());
        assertTrue(refused.stderr().contains("experiment nightly#42"), refused.stderr());
      }
      assertEquals(journal, read(agent.journal()));
      assertEquals("4096\n", read(knob));
      // the run's own restore is still there to do
      assertEquals(List.of(tab("restored", knob, "128")), server.request("restore").lines());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void helloCanNameTheExperiment(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    try (Server server = agent.serve()) {
      Result hello = server.request("hello", tab("experiment", "daily 7"));
      agent.env("TUNELAB_LOCK_WAIT", "0");

      Result restore = agent.call("restore");

      assertEquals(List.of(tab("agent", 1), tab("pid", server.pid())), hello.lines());
      assertEquals(3, restore.rc());
      assertTrue(restore.stderr().contains("experiment daily 7"), restore.stderr());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aOneShotWriterReleasesTheLock(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("read_ahead_kb", "128");

    Result apply = agent.call("apply", tab("set", knob, "4096"));
    Result restore = agent.call("restore");

    assertEquals(0, apply.rc(), apply.stderr());
    assertEquals(0, restore.rc(), restore.stderr());
    assertEquals("128\n", read(knob));
    assertTrue(!agent.state().resolve("lock").toFile().exists(), "lock left behind");
    try (Server server = agent.serve()) {
      assertEquals(0, server.request("hello").rc());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aSequenceNumberIsEchoedOnTheStatusLine(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("nr_requests", "64");
    try (Server server = agent.serve()) {
      server.sendRaw("hello 0 41");
      Result hello = server.await();
      server.sendRaw("read 1 42\n" + knob);
      Result read = server.await();
      server.sendRaw("hello 0 x");
      Result bad = server.await();
      server.sendRaw("hello 0 43 44");
      Result tooMany = server.await();
      Result plain = server.request("hello");

      assertEquals("41", hello.seq());
      assertEquals(0, hello.rc());
      assertEquals("42", read.seq());
      assertEquals(List.of(tab("rw", knob, "64")), read.lines());
      assertEquals(2, bad.rc());
      assertNull(bad.seq());
      assertEquals(2, tooMany.rc());
      assertNull(plain.seq());
      assertEquals(0, plain.rc());
    }
  }
}
