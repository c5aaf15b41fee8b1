package io.tunelab.it;

import io.tunelab.testing.SqliteQuery;
import io.tunelab.testing.TestTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** tunelab as a JVM of its own, as a user starts it, so that a test can signal or kill it. */
final class Controller {
  private Controller() {}

  /** {@code tunelab ARGS…} on this test's class path, not yet started. */
  static ProcessBuilder tunelab(String... args) {
    List<String> argv = new ArrayList<>();
    argv.add(ProcessHandle.current().info().command().orElse("java"));
    argv.add("-cp");
    argv.add(System.getProperty("java.class.path"));
    argv.add("io.tunelab.cli.Main");
    argv.addAll(List.of(args));
    return new ProcessBuilder(argv).redirectErrorStream(true);
  }

  /** Starts {@code tunelab run MATRIX --db DB} with both output streams in {@code out}. */
  static Process run(Path matrix, Path db, Path out) throws Exception {
    return tunelab("run", matrix.toString(), "--db", db.toString())
        .redirectOutput(out.toFile())
        .start();
  }

  /** Waits up to 60 s until trial {@code seq} of the database is running; false if it never is. */
  static boolean awaitRunning(Path db, int seq) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestTime.seconds(60));
    while (System.nanoTime() < deadline) {
      if (Files.exists(db)
          && !SqliteQuery.rows(
                  db, "select 1 from trials where seq = " + seq + " and status = 'running'")
              .isEmpty()) {
        return true;
      }
      Thread.sleep(20);
    }
    return false;
  }
}
