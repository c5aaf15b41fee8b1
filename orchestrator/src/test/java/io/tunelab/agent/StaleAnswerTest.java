package io.tunelab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentScript;
import io.tunelab.remote.Transport;
import io.tunelab.testing.LocalAgent;
import io.tunelab.testing.TestTime;
import io.tunelab.workload.ProcessPlan;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An answer is taken only by the request that carries its number: a late one is never next. */
class StaleAnswerTest {
  @TempDir Path dir;

  @Test
  void aTimedOutRequestClosesTheSessionForGood() {
    try (AgentSession agent = new LocalAgent(dir).start()) {
      AgentException timedOut =
          assertThrows(
              AgentException.class,
              () ->
                  agent.run(
                      List.of(
                          new ProcessPlan("slow", List.of("sh", "-c", "sleep 2; echo late"), null)),
                      Duration.ofSeconds(10),
                      Duration.ofMillis(300)));
      long start = System.nanoTime();
      AgentException next = assertThrows(AgentException.class, agent::facts);
      AgentException later = assertThrows(AgentException.class, agent::hello);
      Duration took = Duration.ofNanos(System.nanoTime() - start);

      assertTrue(
          timedOut.getMessage().contains("no answer to 'run' within 300 ms"),
          timedOut.getMessage());
      assertTrue(next.getMessage().contains("closed after a timeout"), next.getMessage());
      assertTrue(next.getMessage().contains("'facts' not sent"), next.getMessage());
      assertTrue(later.getMessage().contains("closed after a timeout"), later.getMessage());
      // at once, not after the 30 s a request for facts may wait
      assertTrue(
          took.compareTo(TestTime.scaled(Duration.ofSeconds(5))) < 0,
          "a closed session waited " + took);
    }
  }

  @Test
  void aLateAnswerToAnOldNumberIsDiscardedWithItsLines() {
    // A request numbered 0 (the client starts at 1) reaches the real agent first, as the request
    // of an earlier, given-up exchange would: its answer arrives before the awaited one.
    Transport early = new EarlyRequest(new LocalAgent(dir));
    try (AgentSession agent = AgentSession.start(early, AgentScript.load())) {
      Facts facts = agent.facts();
      Hello hello = agent.hello();

      assertEquals(1, agent.discardedAnswers());
      assertTrue(facts.values().containsKey("uid"), facts.values().toString());
      assertFalse(facts.values().containsKey("job"), facts.values().toString());
      assertFalse(facts.values().containsKey("out"), facts.values().toString());
      assertEquals("1", hello.version());
    }
  }

  @Test
  void aClosedSessionSendsNothing() {
    AgentSession agent = new LocalAgent(dir).start();
    agent.close();

    AgentException e = assertThrows(AgentException.class, agent::sync);

    assertTrue(e.getMessage().contains("closed by the controller"), e.getMessage());
  }

  /**
   * Sends a slow {@code run} numbered 0 on the agent's channel before the client's first request.
   */
  private record EarlyRequest(LocalAgent inner) implements Transport {
    @Override
    public String host() {
      return inner.host();
    }

    @Override
    public ExecResult exec(String command, byte[] stdin, Duration timeout) throws IOException {
      return inner.exec(command, stdin, timeout);
    }

    @Override
    public Channel open(String command) throws IOException {
      Channel channel = inner.open(command);
      String request =
          String.join(
              "\n",
              "run 5 0",
              "timeout\t10",
              "job\tlate",
              "arg\tsh",
              "arg\t-c",
              "arg\tsleep 0.3; echo uid; echo late",
              "");
      channel.stdin().write(request.getBytes(StandardCharsets.UTF_8));
      channel.stdin().flush();
      return channel;
    }

    @Override
    public void close() {
      inner.close();
    }
  }
}
