package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.read;
import static io.tunelab.agents.AgentHarness.tab;
import static io.tunelab.agents.AgentHarness.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The state directory on a small, full tmpfs of the test's own: a run is refused before it writes
 * anything, and a restore that cannot write what it keeps leaves the journal whole.
 */
@Tag("integration") // needs root: mounts a tmpfs
class FullStateTest {

  private static final int PAGE = 4096;

  /** A 64 KiB tmpfs mounted for one test; close() unmounts it. */
  private static final class Tmpfs implements AutoCloseable {
    final Path dir;

    Tmpfs(Path dir) throws IOException, InterruptedException {
      Tools.requireRoot();
      this.dir = Files.createDirectory(dir);
      run("mount", "-t", "tmpfs", "-o", "size=64k,mode=0755", "tunelab-test", dir.toString());
    }

    /** A state directory in it, as the agent creates one. */
    Path state() throws IOException {
      Path state = dir.resolve("state");
      if (!Files.isDirectory(state)) {
        Files.createDirectory(
            state,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
      return state;
    }

    /** Fills it up to {@code pages} free pages. */
    void fillLeaving(int pages) throws IOException {
      long free = Files.getFileStore(dir).getUsableSpace();
      try (OutputStream out = Files.newOutputStream(dir.resolve("fill"))) {
        out.write(new byte[(int) (free - (long) pages * PAGE)]);
      }
      assertEquals(
          (long) pages * PAGE, Files.getFileStore(dir).getUsableSpace(), "free space after fill");
    }

    @Override
    public void close() throws IOException, InterruptedException {
      run("umount", dir.toString());
    }

    private static void run(String... command) throws IOException, InterruptedException {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes());
      assertTrue(
          process.waitFor(Tools.millis(30000), TimeUnit.MILLISECONDS), String.join(" ", command));
      assertEquals(0, process.exitValue(), String.join(" ", command) + ": " + output);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aRunIsRefusedBeforeItWritesAnything(String shell, @TempDir Path dir) throws Exception {
    try (Tmpfs fs = new Tmpfs(dir.resolve("fs"))) {
      Path state = fs.state();
      AgentHarness agent = new AgentHarness(shell, dir).env("TUNELAB_STATE", state.toString());
      Path knob = agent.knob("read_ahead_kb", "128");
      fs.fillLeaving(0);

      Result serve = agent.call("serve");
      Result apply = agent.call("apply", tab("set", knob, "4096"));
      Result run = agent.call("run", tab("job", "x"), tab("arg", "true"));

      for (Result refused : List.of(serve, apply, run)) {
        assertEquals(3, refused.rc(), refused.stderr());
        assertEquals(List.of(), refused.lines());
        assertTrue(refused.stderr().contains("its file system has 0 KiB free"), refused.stderr());
      }
      assertEquals("128\n", read(knob));
      try (var left = Files.list(state)) {
        assertEquals(List.of(), left.toList(), "nothing written in the state directory");
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aRestoreThatCannotWriteWhatItKeepsLeavesTheJournalWhole(String shell, @TempDir Path dir)
      throws Exception {
    try (Tmpfs fs = new Tmpfs(dir.resolve("fs"))) {
      Path state = fs.state();
      AgentHarness agent = new AgentHarness(shell, dir).env("TUNELAB_STATE", state.toString());
      Path knob = agent.knob("read_ahead_kb", "4096");
      // a "knob" that is a directory: writing it back fails, so restore keeps its line
      Path stuck = Files.createDirectory(agent.knobPath("stuck"));
      String journal =
          tab("#boot", AgentHarness.bootId())
              + "\n"
              + tab(knob, "128")
              + "\n"
              + tab(stuck, "5")
              + "\n";
      write(state.resolve("journal"), journal);
      // room for the lock's five files (a page each), none for what restore keeps
      fs.fillLeaving(5);

      Result restore = agent.call("restore");

      assertEquals(1, restore.rc(), restore.stderr());
      assertTrue(
          restore.lines().contains(tab("restored", knob, "128")), restore.lines().toString());
      assertTrue(restore.stderr().contains("it is left whole"), restore.stderr());
      assertEquals("128\n", read(knob));
      assertEquals(journal, read(state.resolve("journal")));
      assertFalse(Files.exists(state.resolve("lock")), "the lock is released");
    }
  }
}
