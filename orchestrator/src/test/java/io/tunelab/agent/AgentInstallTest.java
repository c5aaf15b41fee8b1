package io.tunelab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentScript;
import io.tunelab.remote.Transport;
import io.tunelab.testing.LocalAgent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's copy lives in a 0700 directory of the login user and is checked and started in one
 * command, its path quoted: a copy changed after its install never runs.
 */
class AgentInstallTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private final AgentScript script = AgentScript.load();

  @TempDir Path dir;

  private Path copy(Path home) {
    return home.resolve("cache/tunelab").resolve(script.fileName());
  }

  @Test
  void theCopyIsKeptInAPrivateDirectoryAndRunsFromAPathWithBlanks() throws IOException {
    Path home = Files.createDirectories(dir.resolve("a home with blanks"));
    Files.createDirectories(home.resolve("cache/tunelab"));
    Files.setPosixFilePermissions(
        home.resolve("cache/tunelab"), PosixFilePermissions.fromString("rwxr-xr-x"));
    LocalAgent local = new LocalAgent(home);

    try (AgentSession agent = local.start()) {
      assertEquals("1", agent.hello().version());
      assertEquals(copy(home).toString(), agent.remotePath());
    }
    assertEquals(
        "rwx------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(copy(home).getParent())));
  }

  @Test
  void aCopyChangedAfterItsInstallIsNotStarted() throws IOException {
    LocalAgent local = new LocalAgent(dir);
    assertEquals(copy(dir).toString(), AgentInstaller.install(local, script));
    Path marker = dir.resolve("ran");
    Files.writeString(copy(dir), "\ntouch '" + marker + "'\n", StandardOpenOption.APPEND);

    Transport.ExecResult result = local.exec(AgentInstaller.exec(script, "hello"), null, WAIT);

    assertEquals(AgentInstaller.NOT_VERIFIED, result.exitCode(), result.stderrText());
    assertTrue(
        result.stderrText().contains("is not the agent tunelab shipped"), result.stderrText());
    assertFalse(Files.exists(marker), "the changed copy ran");
    // The next install puts the shipped script back.
    AgentInstaller.install(local, script);
    assertEquals(0, local.exec(AgentInstaller.exec(script, "hello"), null, WAIT).exitCode());
  }

  @Test
  void aSymlinkedDirectoryIsRefused() throws IOException {
    Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
    Files.createDirectories(dir.resolve("cache"));
    Files.createSymbolicLink(dir.resolve("cache/tunelab"), elsewhere);
    LocalAgent local = new LocalAgent(dir);

    AgentException e =
        assertThrows(AgentException.class, () -> AgentInstaller.install(local, script));

    assertTrue(e.getMessage().contains("mode 700"), e.getMessage());
    assertFalse(Files.exists(elsewhere.resolve(script.fileName())), "written through the link");
    Transport.ExecResult run = local.exec(AgentInstaller.exec(script, "hello"), null, WAIT);
    assertEquals(AgentInstaller.NOT_VERIFIED, run.exitCode());
  }
}
