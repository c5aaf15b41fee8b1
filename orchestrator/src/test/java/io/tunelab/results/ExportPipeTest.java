package io.tunelab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.TestTime;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tunelab export | head -1}: a reader that leaves early is a normal end, not an error. */
class ExportPipeTest {
  @TempDir Path dir;

  private Process export(Path db, ProcessBuilder.Redirect out) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(
            List.of(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                "io.tunelab.cli.Main",
                "export",
                "--db",
                db.toString()))
        .redirectOutput(out)
        .redirectError(dir.resolve("stderr").toFile())
        .start();
  }

  private Path database() {
    Path db = dir.resolve("big.db");
    // 200 cells x 3 repetitions x 10 samples: far more CSV than a pipe buffers.
    ScaleDatabase.main(new String[] {db.toString(), "200", "3", "1"});
    return db;
  }

  @Test
  void aClosedPipeEndsTheExportWithExitZeroAndNoMessage() throws Exception {
    Process p = export(database(), ProcessBuilder.Redirect.PIPE);
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      assertTrue(r.readLine().startsWith("experiment_id,"));
    }
    assertTrue(
        p.waitFor(TestTime.seconds(60), TimeUnit.SECONDS),
        "export did not end after its reader left");
    assertEquals("", Files.readString(dir.resolve("stderr")));
    assertEquals(0, p.exitValue());
  }

  @Test
  void aFullDiskIsStillAnError() throws Exception {
    Process p = export(database(), ProcessBuilder.Redirect.to(Path.of("/dev/full").toFile()));
    assertTrue(
        p.waitFor(TestTime.seconds(60), TimeUnit.SECONDS), "export did not end on a full disk");
    String err = Files.readString(dir.resolve("stderr"));
    assertEquals(3, p.exitValue(), err);
    assertTrue(err.contains("cannot write standard output"), err);
  }
}
