package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.read;
import static io.tunelab.agents.AgentHarness.tab;
import static io.tunelab.agents.AgentHarness.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The state directory holds what root will write back later (the journal): the agent uses it only
 * when nobody else can have put anything there.
 */
@Tag("integration") // needs root: a state directory only root may own
class StateDirTest {

  private static final int NOBODY = 65534;

  /** A journal that would make restore write "planted" into {@code knob}. */
  private static void plant(AgentHarness agent, Path knob) {
    agent.createState();
    write(
        agent.journal(), tab("#boot", AgentHarness.bootId()) + "\n" + tab(knob, "planted") + "\n");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aStateDirOfAnotherOwnerIsRefusedAndNothingIsRestoredFromIt(String shell, @TempDir Path dir)
      throws IOException {
    Tools.requireRoot();
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("read_ahead_kb", "128");
    plant(agent, knob);
    Files.setAttribute(agent.journal(), "unix:uid", NOBODY);
    Files.setAttribute(agent.state(), "unix:uid", NOBODY);

    Result restore = agent.call("restore");
    Result apply = agent.call("apply", tab("set", knob, "4096"));
    Result serve = agent.call("serve");

    for (Result refused : List.of(restore, apply, serve)) {
      assertEquals(3, refused.rc(), refused.stderr());
      assertEquals(List.of(), refused.lines());
      assertTrue(
          refused.stderr().contains("belongs to uid " + NOBODY + ", not to 0"), refused.stderr());
    }
    assertEquals("128\n", read(knob));
    assertEquals(List.of(tab("#boot", AgentHarness.bootId()), tab(knob, "planted")), lines(agent));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aStateDirOthersCanWriteIsRefused(String shell, @TempDir Path dir) throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("read_ahead_kb", "128");
    plant(agent, knob);
    Files.setPosixFilePermissions(agent.state(), PosixFilePermissions.fromString("rwxrwxrwx"));

    Result restore = agent.call("restore");

    assertEquals(3, restore.rc(), restore.stderr());
    assertTrue(restore.stderr().contains("its mode is 777"), restore.stderr());
    assertEquals("128\n", read(knob));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aSymlinkedStateDirIsRefused(String shell, @TempDir Path dir) throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("read_ahead_kb", "128");
    Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
    Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rwx------"));
    write(
        elsewhere.resolve("journal"),
        tab("#boot", AgentHarness.bootId()) + "\n" + tab(knob, "planted") + "\n");
    Files.createSymbolicLink(agent.state(), elsewhere);

    Result restore = agent.call("restore");

    assertEquals(3, restore.rc(), restore.stderr());
    assertTrue(restore.stderr().contains("symbolic link"), restore.stderr());
    assertEquals("128\n", read(knob));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aStateDirInAParentOthersCanWriteIsRefused(String shell, @TempDir Path dir)
      throws IOException {
    Path open = Files.createDirectory(dir.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    AgentHarness agent = new AgentHarness(shell, open);

    Result hello = agent.call("hello");

    assertEquals(3, hello.rc(), hello.stderr());
    assertTrue(hello.stderr().contains("writable by others"), hello.stderr());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void everyAncestorIsCheckedNotOnlyTheParent(String shell, @TempDir Path dir) throws IOException {
    Path open = Files.createDirectory(dir.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    // its parent is fine; the one above it lets anyone rename the parent away
    AgentHarness agent = new AgentHarness(shell, Files.createDirectory(open.resolve("sub")));

    Result hello = agent.call("hello");

    assertEquals(3, hello.rc(), hello.stderr());
    assertTrue(
        hello.stderr().contains("its ancestor " + open.toRealPath() + " is writable by others"),
        hello.stderr());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void anAncestorOfAnotherOwnerIsRefused(String shell, @TempDir Path dir) throws IOException {
    Tools.requireRoot();
    Path theirs = Files.createDirectory(dir.resolve("theirs"));
    AgentHarness agent = new AgentHarness(shell, Files.createDirectory(theirs.resolve("sub")));
    Files.setAttribute(theirs, "unix:uid", NOBODY);

    Result hello = agent.call("hello");

    assertEquals(3, hello.rc(), hello.stderr());
    assertTrue(
        hello
            .stderr()
            .contains("its ancestor " + theirs.toRealPath() + " belongs to uid " + NOBODY),
        hello.stderr());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aStateDirOnlyItsOwnerCanWriteIsAcceptedAsStrictModesDoes(String shell, @TempDir Path dir)
      throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("read_ahead_kb", "128");
    agent.createState();
    Files.setPosixFilePermissions(agent.state(), PosixFilePermissions.fromString("rwxr-xr-x"));

    Result apply = agent.call("apply", tab("set", knob, "4096"));

    assertEquals(0, apply.rc(), apply.stderr());
    assertEquals("4096\n", read(knob));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void theAgentCreatesItsStateDirPrivate(String shell, @TempDir Path dir) throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);

    Result hello = agent.call("hello");

    assertEquals(0, hello.rc(), hello.stderr());
    assertEquals(
        "rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(agent.state())));
  }

  private static List<String> lines(AgentHarness agent) throws IOException {
    return Files.readAllLines(agent.journal());
  }
}
