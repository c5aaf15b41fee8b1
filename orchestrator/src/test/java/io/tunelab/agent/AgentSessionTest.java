package io.tunelab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentScript;
import io.tunelab.knob.ApplyLine;
import io.tunelab.knob.ApplyLine.Op;
import io.tunelab.knob.Knob;
import io.tunelab.knob.ReadResult;
import io.tunelab.testing.LocalAgent;
import io.tunelab.testing.TestTime;
import io.tunelab.workload.JobResult;
import io.tunelab.workload.ProcessPlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The typed client against the real agent script: temp files stand in for knobs. */
class AgentSessionTest {
  @TempDir Path dir;

  private Knob knob(String name, String value) throws IOException {
    Path path = Files.createDirectories(dir.resolve("knobs")).resolve(name);
    if (value != null) {
      Files.writeString(path, value + "\n");
    }
    return new Knob("test." + name, path.toString(), Knob.Kind.SYSFS, null);
  }

  private static String content(Knob k) throws IOException {
    return Files.readString(Path.of(k.path()));
  }

  @Test
  void helloAndFactsDescribeTheAgentAndTheHost() {
    LocalAgent local = new LocalAgent(dir);
    try (AgentSession agent = local.start()) {
      Hello hello = agent.hello();
      Facts facts = agent.facts();

      assertEquals("1", hello.version());
      assertTrue(hello.pid() > 0);
      assertEquals(local.state().toString(), facts.get("state"));
      assertEquals("absent", facts.get("journal"));
      assertTrue(facts.get("uid").matches("[0-9]+"), facts.values().toString());
      assertTrue(Long.parseLong(facts.get("cpus")) > 0, facts.values().toString());
      assertFalse(facts.values().containsKey("block"), facts.values().toString());
      facts.schedulers().values().forEach(line -> assertTrue(line.contains("["), line));
    }
  }

  @Test
  void applyReadsBackAndRestoreWritesTheOriginalsBack() throws IOException {
    Knob ra = knob("read_ahead_kb", "128");
    Knob words = knob("words", "old value");
    Knob watched = knob("watched", "7");
    Knob missing = knob("missing", null);
    try (AgentSession agent = new LocalAgent(dir).start()) {
      ApplyResult applied =
          agent.apply(
              List.of(
                  new ApplyLine(Op.SAVE, ra, null, null),
                  new ApplyLine(Op.SAVE, words, null, null),
                  new ApplyLine(Op.SET, ra, null, "512"),
                  new ApplyLine(Op.SET, words, null, "two words"),
                  new ApplyLine(Op.CHECK, watched, null, null)));
      Map<String, ReadResult> read = agent.read(List.of(ra.path(), words.path(), missing.path()));
      List<JournalEntry> journal = agent.journal();
      ApplyResult failed = agent.apply(List.of(new ApplyLine(Op.SET, missing, null, "1")));
      RestoreResult restored = agent.restore();
      RestoreResult again = agent.restore();

      assertTrue(applied.ok(), applied.toString());
      assertEquals(
          Map.of(ra.path(), "512", words.path(), "two words", watched.path(), "7"),
          applied.effective());
      assertEquals(
          List.copyOf(applied.effective().keySet()),
          List.of(ra.path(), words.path(), watched.path()));
      assertEquals(new ReadResult(ReadResult.State.RW, "512"), read.get(ra.path()));
      assertEquals(new ReadResult(ReadResult.State.RW, "two words"), read.get(words.path()));
      assertEquals(ReadResult.missing(), read.get(missing.path()));
      assertEquals(
          List.of(new JournalEntry(ra.path(), "128"), new JournalEntry(words.path(), "old value")),
          journal);
      assertEquals(1, failed.status());
      assertFalse(failed.ok());
      assertEquals(1, failed.failures().size());
      assertEquals(missing.path(), failed.failures().get(0).path());
      assertTrue(failed.failures().get(0).message().contains("no such file"), failed.toString());
      assertEquals(
          List.of(
              new RestoreResult.Restored(ra.path(), "128"),
              new RestoreResult.Restored(words.path(), "old value")),
          restored.restored());
      assertTrue(restored.ok(), restored.toString());
      assertEquals("128\n", content(ra));
      assertEquals("old value\n", content(words));
      assertEquals(List.of(), again.restored());
      assertTrue(again.ok());
    }
  }

  @Test
  void runStartsTwoJobsAndReportsEachOnItsOwn() {
    try (AgentSession agent = new LocalAgent(dir).start()) {
      RunResult run =
          agent.run(
              List.of(
                  new ProcessPlan(
                      "a.0", List.of("sh", "-c", "echo one; echo two; echo oops >&2"), null),
                  new ProcessPlan("b.1", List.of("sh", "-c", "echo 'tab\there'; exit 3"), null)),
              Duration.ofSeconds(30));

      assertEquals(1, run.status());
      JobResult a = run.jobs().get(0);
      JobResult b = run.jobs().get(1);
      assertEquals("a.0", a.name());
      assertEquals(0, a.exitCode());
      assertEquals(List.of("one", "two"), a.stdout());
      assertEquals(List.of("oops"), a.stderr());
      assertTrue(a.startNanos() > 0 && a.endNanos() >= a.startNanos(), a.toString());
      assertEquals("b.1", b.name());
      assertEquals(3, b.exitCode());
      assertEquals(List.of("tab\there"), b.stdout());
      assertEquals(List.of(), b.stderr());
    }
  }

  @Test
  void aFractionalLimitKillsTheJobOnTheHost() {
    try (AgentSession agent = new LocalAgent(dir).start()) {
      RunResult run =
          agent.run(
              List.of(new ProcessPlan("slow", List.of("sleep", "30"), null)),
              Duration.ofMillis(500));

      assertEquals(124, run.jobs().get(0).exitCode());
      // killed at its limit, not run to the end of its sleep 30
      assertTrue(run.jobs().get(0).hostSeconds() < TestTime.seconds(10), run.toString());
    }
  }

  @Test
  void syncAndAnIdleCancelSucceed() {
    try (AgentSession agent = new LocalAgent(dir).start()) {
      agent.sync();

      assertEquals(List.of(), agent.cancel());
      assertEquals("1", agent.hello().version());
    }
  }

  @Test
  void aOneShotRestoreIsRefusedWhileASessionHoldsTheLockAndTakesOverOnceItsInputEnds()
      throws IOException {
    Knob ra = knob("read_ahead_kb", "128");
    LocalAgent local = new LocalAgent(dir);
    try (AgentSession agent = local.start()) {
      agent.apply(
          List.of(new ApplyLine(Op.SAVE, ra, null, null), new ApplyLine(Op.SET, ra, null, "64")));

      AgentException refused =
          assertThrows(
              AgentException.class, () -> AgentSession.restoreOneShot(local, AgentScript.load()));

      assertTrue(refused.getMessage().contains("a live agent (pid "), refused.getMessage());
      assertEquals("64\n", content(ra));
      assertEquals(1, agent.journal().size());
    }
    // The session's input has ended: its agent waits for a reconnect, and a one-shot takes over.
    RestoreResult restored = AgentSession.restoreOneShot(local, AgentScript.load());

    assertEquals(List.of(new RestoreResult.Restored(ra.path(), "128")), restored.restored());
    assertEquals("128\n", content(ra));
  }

  @Test
  void aRefusedRequestThrows() {
    try (AgentSession agent = new LocalAgent(dir).start()) {
      AgentException e =
          assertThrows(
              AgentException.class,
              () ->
                  agent.run(
                      List.of(new ProcessPlan("bad name!", List.of("true"), null)),
                      Duration.ofSeconds(5)));

      assertTrue(e.getMessage().contains("'run' failed (status 2)"), e.getMessage());
      assertEquals("1", agent.hello().version());
    }
  }
}
