package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.TunelabException;
import io.tunelab.matrix.MatrixLoader;
import io.tunelab.remote.LocalTransport;
import io.tunelab.remote.Transport;
import io.tunelab.run.ExperimentRunner;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Integration;
import io.tunelab.testing.SqliteQuery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A host where the agent does not run as root is refused before anything is touched. */
@Integration
class NotRootTest {
  @TempDir Path dir;

  /** The local host, but every command runs as user nobody. */
  static final class NobodyTransport implements Transport {
    private final LocalTransport local = new LocalTransport();
    private final Path home;

    NobodyTransport(Path home) {
      this.home = home;
    }

    private String asNobody(String command) {
      return "exec setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="
          + home
          + " sh -c '"
          + command.replace("'", "'\\''")
          + "'";
    }

    @Override
    public String host() {
      return "local";
    }

    @Override
    public ExecResult exec(String command, byte[] stdin, Duration timeout) throws IOException {
      return local.exec(asNobody(command), stdin, timeout);
    }

    @Override
    public Channel open(String command) throws IOException {
      return local.open(asNobody(command));
    }

    @Override
    public void close() {}
  }

  @Test
  void notRootIsRefusedWithExitThreeAndNoExperiment() throws Exception {
    Lab.requireRoot();
    try (LoopDisk disk = LoopDisk.create(dir, 8)) {
      String before = disk.queue("read_ahead_kb");
      Path home = Files.createDirectory(dir.resolve("home"));
      // nobody's own home, as the agent's state-dir check (StrictModes) wants it.
      assertEquals(
          0, new ProcessBuilder("chown", "65534:65534", home.toString()).start().waitFor());
      Files.setPosixFilePermissions(
          dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
      String yaml =
          "name: x\nmatrix:\n  local.block."
              + disk.dev
              + ".read_ahead_kb: [4096]\n"
              + "workload:\n  command: \"true\"\n";
      Path db = dir.resolve("t.db");
      List<String> out = new ArrayList<>();
      try (JdbcResultStore store = JdbcResultStore.open(db)) {
        ExperimentRunner runner =
            new ExperimentRunner(host -> new NobodyTransport(home), store, out::add, "test");
        TunelabException e =
            assertThrows(
                TunelabException.class, () -> runner.run(MatrixLoader.load("m.yaml", yaml)));
        assertEquals(TunelabException.HOST_REFUSED, e.exitCode());
        assertTrue(
            e.getMessage().startsWith("host local: tunelab must run as root"), e.getMessage());
        assertTrue(e.getMessage().contains("uid 65534"), e.getMessage());
      }
      assertEquals(List.of(List.of("0")), SqliteQuery.rows(db, "select count(*) from experiments"));
      assertEquals(before, disk.queue("read_ahead_kb"));
    }
  }
}
