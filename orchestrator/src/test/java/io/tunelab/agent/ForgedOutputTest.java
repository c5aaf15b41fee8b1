package io.tunelab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.LocalAgent;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a workload prints is its output, never the agent's rows: a CR (a progress bar, a CRLF file)
 * neither ends a protocol line nor lets the text after it pose as a row of the answer.
 */
class ForgedOutputTest {
  @TempDir Path dir;

  private static TrialReport run(AgentSession agent, String command) {
    return agent.runTrial(
        new TrialRequest(
            List.of(
                new TrialProcess(
                    "cmd.0", List.of("sh", "-c", command), null, null, null, null, true)),
            List.of(),
            null,
            Duration.ofMinutes(1)),
        () -> false);
  }

  @Test
  void aProgressBarsCarriageReturnIsKeptVerbatimAndEndsNoLine() {
    try (AgentSession agent = new LocalAgent(dir).start()) {
      TrialReport report = run(agent, "printf 'progress 10%%\\rprogress 100%%\\n'");

      assertEquals(0, report.status(), report.toString());
      assertEquals(
          List.of("progress 10%\rprogress 100%"), report.processes().get(0).result().stdout());
    }
  }

  @Test
  void aWorkloadCannotForgeItsOwnTimingOrScheduling() {
    try (AgentSession agent = new LocalAgent(dir).start()) {
      TrialReport report =
          run(
              agent,
              "printf 'x\\r|job\\tcmd.0\\t0\\t1000000000\\t43000000000\\n"
                  + "y\\r|sched\\tcmd.0\\t-20\\trt/0\\t0\\n'");

      assertEquals(1, report.processes().size(), report.toString());
      ProcessReport p = report.processes().get(0);
      assertTrue(p.result().hostSeconds() < 30, "stored " + p.result().hostSeconds() + " s");
      assertEquals(
          List.of("x\r|job\tcmd.0\t0\t1000000000\t43000000000", "y\r|sched\tcmd.0\t-20\trt/0\t0"),
          p.result().stdout());
      assertTrue(p.effective().nice() == null || p.effective().nice() != -20, p.toString());
    }
  }

  @Test
  void escapedControlCharactersAndBackslashesDecodeToWhatWasPrinted() {
    assertEquals("a\\b\rc\u001bd\te", Answer.relayed("a\\\\b\\x0dc\\x1bd\te"));
    assertEquals("plain", Answer.relayed("plain"));
  }

  @Test
  void twoRowsForOneJobAreRefused() {
    Answer answer =
        new Answer(
            "h", AgentVerb.RUN, 0, List.of("job\tcmd.0\t0\t1\t2", "job\tcmd.0\t0\t1\t43000000000"));
    AgentException e = assertThrows(AgentException.class, () -> TrialReport.from(answer));
    assertTrue(e.getMessage().contains("two 'job' rows for cmd.0"), e.getMessage());
  }

  @Test
  void framesEndAtLineFeedsOnlyAndAreBounded() throws IOException {
    byte[] wire = "a\rb\nccccccccccccccc\nlast".getBytes(StandardCharsets.UTF_8);
    LineFrames frames = new LineFrames(new ByteArrayInputStream(wire), 5);
    List<String> lines = new ArrayList<>();
    for (String l = frames.next(); l != null; l = frames.next()) {
      lines.add(l);
    }
    assertEquals(List.of("a\rb", "ccccc [… 10 bytes cut]", "last"), lines);
  }
}
