package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.read;
import static io.tunelab.agents.AgentHarness.tab;
import static io.tunelab.agents.AgentHarness.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Journaling without the controller's help, the files a write changes besides itself, and the order
 * in which restore puts them back — on a fake block queue made of plain files.
 */
class SideEffectTest {

  /** A fake {@code /sys/block/DEV/queue} with mq-deadline selected. */
  private static Path queue(AgentHarness agent) throws IOException {
    Path queue = Files.createDirectories(agent.knobPath("loop9").resolve("queue"));
    write(queue.resolve("scheduler"), "none [mq-deadline] kyber bfq\n");
    write(queue.resolve("wbt_lat_usec"), "2000\n");
    write(queue.resolve("nr_requests"), "64\n");
    write(queue.resolve("read_ahead_kb"), "128\n");
    write(queue.resolve("max_sectors_kb"), "1280\n");
    Path iosched = Files.createDirectories(queue.resolve("iosched"));
    write(iosched.resolve("fifo_batch"), "16\n");
    write(iosched.resolve("read_expire"), "100\n");
    Path readOnly = iosched.resolve("zz_read_only");
    write(readOnly, "1\n");
    Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r--r--r--"));
    return queue;
  }

  private static List<String> journal(AgentHarness agent) {
    return agent.call("journal").lines();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aSetPathIsJournaledEvenWithoutASaveLine(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("nomerges", "0");
    Path unreadable = agent.knobPath("directory");
    unreadable.toFile().mkdir();
    Path other = agent.knob("rq_affinity", "1");

    Result apply =
        agent.call(
            "apply", tab("set", knob, "2"), tab("set", unreadable, "1"), tab("set", other, "2"));

    assertEquals(1, apply.rc());
    assertEquals("2\n", read(knob));
    assertEquals("2\n", read(other));
    List<String> fails = apply.rest("fail");
    assertEquals(1, fails.size(), fails.toString());
    assertTrue(
        fails.get(0).startsWith(unreadable + "\tnot written: its original value cannot be"),
        fails.get(0));
    assertEquals(List.of(tab(knob, "0"), tab(other, "1")), journal(agent));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aSchedulerWriteJournalsWhatTheSwitchResets(String shell, @TempDir Path dir)
      throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path queue = queue(agent);

    Result apply = agent.call("apply", tab("set", queue.resolve("scheduler"), "bfq"));
    Result again = agent.call("apply", tab("set", queue.resolve("max_sectors_kb"), "64"));

    assertEquals(0, apply.rc(), apply.stderr());
    assertEquals(0, again.rc(), again.stderr());
    assertEquals(
        List.of(
            tab(queue.resolve("scheduler"), "mq-deadline"),
            tab(queue.resolve("wbt_lat_usec"), "2000"),
            tab(queue.resolve("nr_requests"), "64"),
            tab(queue.resolve("iosched/fifo_batch"), "16"),
            tab(queue.resolve("iosched/read_expire"), "100"),
            tab(queue.resolve("max_sectors_kb"), "1280"),
            tab(queue.resolve("read_ahead_kb"), "128")),
        journal(agent));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void restorePutsCausesBackBeforeTheirDependents(String shell, @TempDir Path dir)
      throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path queue = queue(agent);
    agent.createState();
    // The order in which a run first wrote them: dependents before their causes.
    write(
        agent.journal(),
        String.join(
            "\n",
            tab("#boot", AgentHarness.bootId()),
            tab(queue.resolve("iosched/read_expire"), "250"),
            tab(queue.resolve("read_ahead_kb"), "256"),
            tab(queue.resolve("scheduler"), "kyber"),
            tab(queue.resolve("wbt_lat_usec"), "75000"),
            tab(queue.resolve("max_sectors_kb"), "512"),
            ""));

    Result restore = agent.call("restore");

    assertEquals(0, restore.rc(), restore.stderr());
    assertEquals(
        List.of(
            tab("restored", queue.resolve("scheduler"), "kyber"),
            tab("restored", queue.resolve("max_sectors_kb"), "512"),
            tab("restored", queue.resolve("iosched/read_expire"), "250"),
            tab("restored", queue.resolve("read_ahead_kb"), "256"),
            tab("restored", queue.resolve("wbt_lat_usec"), "75000")),
        restore.lines());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void goneIsAWarningAndAnInactiveSchedulersTunableIsDroppedQuietly(String shell, @TempDir Path dir)
      throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path queue = queue(agent);
    Path good = agent.knob("good", "changed");
    Path gone = agent.knobPath("loop8").resolve("queue/read_ahead_kb");
    agent.createState();
    write(
        agent.journal(),
        String.join(
            "\n",
            tab("#boot", AgentHarness.bootId()),
            tab(gone, "128"),
            tab(queue.resolve("iosched/slice_idle"), "8"),
            tab(good, "original"),
            ""));

    Result restore = agent.call("restore");

    assertEquals(0, restore.rc(), restore.stderr());
    assertEquals(List.of(tab("gone", gone), tab("restored", good, "original")), restore.lines());
    assertFalse(Files.exists(agent.journal()), "a gone path no longer blocks later runs");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void discardDropsWhatCannotBeWrittenBack(String shell, @TempDir Path dir) throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path good = agent.knob("good", "changed");
    Path directory = Files.createDirectory(agent.knobPath("directory"));
    agent.createState();
    String journal =
        String.join(
            "\n",
            tab("#boot", AgentHarness.bootId()),
            tab(directory, "7"),
            tab(good, "original"),
            "");
    write(agent.journal(), journal);

    Result kept = agent.call("restore");
    List<String> keptJournal = Files.readAllLines(agent.journal());
    write(agent.journal(), journal);
    write(good, "changed\n");
    Result discarded = agent.call("restore", "discard");

    assertEquals(1, kept.rc());
    assertEquals(List.of(tab("#boot", AgentHarness.bootId()), tab(directory, "7")), keptJournal);
    assertEquals(0, discarded.rc(), discarded.stderr());
    assertEquals(
        List.of(tab("discarded", directory, "7"), tab("restored", good, "original")),
        discarded.lines());
    assertTrue(discarded.stderr().contains("Is a directory"), discarded.stderr());
    assertFalse(Files.exists(agent.journal()));
  }
}
