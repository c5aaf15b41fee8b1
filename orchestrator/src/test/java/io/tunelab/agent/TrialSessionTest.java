package io.tunelab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.LocalAgent;
import io.tunelab.testing.TestTime;
import io.tunelab.workload.Stopped;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A trial's start, release, wait and end through the typed client, against the real agent. */
class TrialSessionTest {
  @TempDir Path dir;

  private static TrialProcess process(String name, String command) {
    return new TrialProcess(name, List.of("sh", "-c", command), null, null, null, null, false);
  }

  @Test
  void thePayloadSaysEverythingOnItsOwnLine() {
    TrialRequest request =
        new TrialRequest(
            List.of(
                new TrialProcess(
                    "r.0", List.of("fio", "-"), "[r]\nrw=read\n", "rt/0", -5, "0-1", true)),
            List.of(new TrialMonitor("vmstat@c", List.of("vmstat", "1"))),
            Duration.ofSeconds(3),
            Duration.ofMillis(90_500));

    assertEquals(
        List.of(
            "timeout\t90.5",
            "duration\t3",
            "job\tr.0",
            "arg\tfio",
            "arg\t-",
            "stdin\t[r]",
            "stdin\trw=read",
            "ionice\trt/0",
            "nice\t-5",
            "cpus\t0-1",
            "stdout\tall",
            "monitor\tvmstat@c",
            "arg\tvmstat",
            "arg\t1"),
        request.payload());
  }

  @Test
  void startReleaseAndAwaitReportEveryProcessAndMonitor() {
    try (AgentSession agent = new LocalAgent(dir).start()) {
      agent.startTrial(
          new TrialRequest(
              List.of(
                  new TrialProcess(
                      "writer.0",
                      List.of("sh", "-c", "cat; ionice -p $$"),
                      "line one\n\nline three",
                      "be/6",
                      3,
                      null,
                      true),
                  process("sleeper.0", "trap 'echo stopped; exit 0' INT; sleep 30 & wait")),
              List.of(
                  new TrialMonitor(
                      "ticker@client",
                      List.of("sh", "-c", "while :; do echo tick; sleep 0.1; done"))),
              Duration.ofMillis(600),
              Duration.ofMinutes(1)));
      agent.releaseTrial();
      TrialReport report = agent.awaitTrial();
      TrialReport end = agent.endTrial();

      assertEquals(0, report.status());
      assertEquals(List.of(), report.monitors(), "monitors run on until the trial ends");
      assertEquals(List.of(), end.processes(), "the processes were reported already");
      ProcessReport writer = report.processes().get(0);
      assertEquals("writer.0", writer.result().name());
      assertEquals(
          List.of("line one", "", "line three", "best-effort: prio 6"), writer.result().stdout());
      assertEquals(
          new Scheduling(3, writer.effective().cpus(), "best-effort: prio 6"), writer.effective());
      assertEquals(Stopped.NO, writer.stopped());
      ProcessReport sleeper = report.processes().get(1);
      assertEquals(Stopped.INTERRUPTED, sleeper.stopped());
      assertEquals(List.of("stopped"), sleeper.result().stdout());
      double seconds = sleeper.result().hostSeconds();
      assertTrue(
          seconds >= 0.55 && seconds < TestTime.seconds(3), "stopped after " + seconds + " s");
      MonitorReport ticker = end.monitors().get(0);
      assertEquals("ticker@client", ticker.name());
      assertTrue(ticker.ranToTheEnd(), ticker.toString());
      assertTrue(ticker.stdout().size() >= 3, ticker.toString());
    }
  }

  @Test
  void awaitingWithoutReleaseCallsTheTrialOff() {
    try (AgentSession agent = new LocalAgent(dir).start()) {
      agent.startTrial(
          new TrialRequest(
              List.of(process("w.0", "touch " + dir.resolve("RAN"))),
              List.of(),
              null,
              Duration.ofMinutes(1)));
      TrialReport report = agent.awaitTrial();

      assertEquals(1, report.status());
      assertEquals(130, report.processes().get(0).result().exitCode());
      assertFalse(Files.exists(dir.resolve("RAN")));
      // and the session goes on: one-shot steps run as before
      assertEquals(
          0,
          agent
              .run(
                  List.of(new io.tunelab.workload.ProcessPlan("step", List.of("true"), null)),
                  Duration.ofSeconds(10))
              .status());
    }
  }

  @Test
  void aSecondStartIsRefused() {
    try (AgentSession agent = new LocalAgent(dir).start()) {
      TrialRequest request =
          new TrialRequest(List.of(process("w.0", "true")), List.of(), null, Duration.ofMinutes(1));
      agent.startTrial(request);
      AgentException e = assertThrows(AgentException.class, () -> agent.startTrial(request));
      // refused by the host (its reason reaches the message once its stderr has been read)
      assertTrue(e.getMessage().contains("'start' failed (status 3)"), e.getMessage());
      agent.releaseTrial();
      assertEquals(0, agent.awaitTrial().status());
    }
  }

  @Test
  void aTrialOnOneHostRunsInOneRequestAndReportsProcessesAndMonitors() {
    try (AgentSession agent = new LocalAgent(dir).start()) {
      TrialReport report =
          agent.runTrial(
              new TrialRequest(
                  List.of(
                      process("fast.0", "echo done"),
                      process("sleeper.0", "trap 'echo stopped; exit 0' INT; sleep 30 & wait")),
                  List.of(
                      new TrialMonitor(
                          "ticker@server",
                          List.of("sh", "-c", "while :; do echo tick; sleep 0.1; done"))),
                  Duration.ofMillis(500),
                  Duration.ofMinutes(1)),
              () -> false);

      assertEquals(0, report.status());
      assertEquals(List.of("done"), report.processes().get(0).result().stdout());
      assertEquals(Stopped.INTERRUPTED, report.processes().get(1).stopped());
      assertTrue(report.monitors().get(0).ranToTheEnd(), report.toString());
      // the session goes on: a second trial runs as the first
      assertEquals(
          0,
          agent
              .runTrial(
                  new TrialRequest(
                      List.of(process("w.0", "true")), List.of(), null, Duration.ofMinutes(1)),
                  () -> false)
              .status());
    }
  }

  @Test
  void aTrialIsNotSentOnceStoppingSaysSo() {
    try (AgentSession agent = new LocalAgent(dir).start()) {
      TrialReport report =
          agent.runTrial(
              new TrialRequest(
                  List.of(process("w.0", "touch " + dir.resolve("RAN"))),
                  List.of(),
                  null,
                  Duration.ofMinutes(1)),
              () -> true);

      assertEquals(null, report);
      assertFalse(Files.exists(dir.resolve("RAN")));
    }
  }

  @Test
  void aCancelSentWhileTheTrialIsOnItsWayStillStopsIt() throws Exception {
    LocalAgent local = new LocalAgent(dir);
    try (AgentSession agent = local.start()) {
      java.util.concurrent.CountDownLatch sending = new java.util.concurrent.CountDownLatch(1);
      java.util.concurrent.CompletableFuture<TrialReport> run =
          java.util.concurrent.CompletableFuture.supplyAsync(
              () ->
                  agent.runTrial(
                      new TrialRequest(
                          List.of(process("w.0", "sleep 30; touch " + dir.resolve("RAN"))),
                          List.of(),
                          null,
                          Duration.ofMinutes(1)),
                      () -> {
                        sending.countDown();
                        return false;
                      }));
      assertTrue(sending.await(10, java.util.concurrent.TimeUnit.SECONDS));
      long t0 = System.nanoTime();

      // Most likely before the agent has even read the request: the first cancel finds no trial.
      agent.cancel();
      TrialReport report = run.get(TestTime.seconds(20), java.util.concurrent.TimeUnit.SECONDS);

      Duration took = Duration.ofNanos(System.nanoTime() - t0);
      // stopped, not run to the end of its sleep 30
      assertTrue(
          took.compareTo(TestTime.scaled(Duration.ofSeconds(10))) < 0,
          "the trial ran on for " + took);
      assertTrue(report.processes().get(0).result().exitCode() != 0, report.toString());
      assertFalse(Files.exists(dir.resolve("RAN")));
    }
  }
}
