package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunLogTest {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-11-30T22:15:03.412Z"), ZoneOffset.UTC);

  @TempDir Path dir;

  @Test
  void elsewhereTrialLinesArePrintedBehindTheTimeAndNoBarIsDrawn() throws Exception {
    StringWriter out = new StringWriter();
    try (RunLog log = RunLog.open(dir.resolve("t.db"), "m", new PrintWriter(out), CLOCK, false)) {
      log.accept("log: x");
      log.bar("[###] 1/2");
      log.progress("[1/2] bs=1M rep 1: 0.4 s (0 failed, 1s elapsed, eta 1s)");
      log.logOnly("trial 1 started");

      assertEquals(
          "log: x\n2026-11-30T22:15:03Z [1/2] bs=1M rep 1: 0.4 s (0 failed, 1s elapsed, eta 1s)\n",
          out.toString());
      assertEquals(
          List.of(
              "2026-11-30T22:15:03.412Z log: x",
              "2026-11-30T22:15:03.412Z [1/2] bs=1M rep 1: 0.4 s (0 failed, 1s elapsed, eta 1s)",
              "2026-11-30T22:15:03.412Z trial 1 started"),
          Files.readAllLines(log.file()));
    }
  }

  @Test
  void onATerminalTheBarStaysOnTheLastLineAndTrialLinesGoToTheLogOnly() throws Exception {
    StringWriter out = new StringWriter();
    Path file;
    try (RunLog log = RunLog.open(dir.resolve("t.db"), "m", new PrintWriter(out), CLOCK, true)) {
      file = log.file();
      log.bar("[#--] 1/3");
      log.progress("[1/3] bs=1M rep 1: 0.4 s");
      log.accept("warning: something");
      log.bar("[##-] 2/3");
    }

    assertEquals(
        "\r\033[K[#--] 1/3"
            + "\r\033[Kwarning: something\n[#--] 1/3"
            + "\r\033[K[##-] 2/3"
            + "\r\033[K",
        out.toString());
    List<String> lines = Files.readAllLines(file);
    assertEquals(2, lines.size(), lines.toString());
    assertTrue(lines.get(0).endsWith(" [1/3] bs=1M rep 1: 0.4 s"), lines.get(0));
  }
}
