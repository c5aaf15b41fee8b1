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
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code apply}, {@code journal} and {@code restore} on fake knob files. */
class ApplyRestoreTest {

  private static List<String> journalLines(AgentHarness agent) throws IOException {
    return Files.readAllLines(agent.journal());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aJournalThatCannotBeWrittenHoldsBackEveryWriteAndStaysAsItWas(
      String shell, @TempDir Path dir) throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path first = agent.knob("read_ahead_kb", "128");
    Path second = agent.knob("nr_requests", "64");
    assertEquals(0, agent.call("apply", tab("set", first, "256")).rc());
    List<String> before = journalLines(agent);
    // where the journal is written before it replaces the old one: a write there fails
    Files.createDirectory(agent.state().resolve("journal.new"));

    Result apply = agent.call("apply", tab("set", first, "512"), tab("set", second, "32"));

    assertEquals(1, apply.rc(), apply.stderr());
    assertTrue(apply.stderr().contains("cannot write " + agent.journal()), apply.stderr());
    for (Path knob : List.of(first, second)) {
      assertTrue(
          apply.lines().stream()
              .anyMatch(l -> l.startsWith(tab("fail", knob, "not written: an original value"))),
          apply.lines().toString());
    }
    assertEquals("256\n", read(first));
    assertEquals("64\n", read(second));
    assertEquals(before, journalLines(agent));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void applyJournalsTheOriginalBeforeWritingAndReadsBack(String shell, @TempDir Path dir)
      throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("read_ahead_kb", "128");
    String boot = AgentHarness.bootId();

    // The save line comes last: saves are still done before any set.
    Result apply = agent.call("apply", tab("set", knob, "2048"), tab("save", knob));

    assertEquals(0, apply.rc(), apply.stderr());
    assertEquals(List.of(tab("eff", knob, "2048")), apply.lines());
    assertEquals("2048\n", read(knob));
    assertEquals(List.of(tab("#boot", boot), tab(knob, "128")), journalLines(agent));
    assertEquals(List.of(tab(knob, "128")), agent.call("journal").lines());
    assertEquals("present", agent.call("facts").value("journal").orElseThrow());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aPathIsNeverJournaledTwice(String shell, @TempDir Path dir) throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("nr_requests", "64");
    agent.call("apply", tab("save", knob), tab("set", knob, "128"));

    Result again =
        agent.call("apply", tab("save", knob), tab("save", knob), tab("set", knob, "256"));

    assertEquals(0, again.rc(), again.stderr());
    assertEquals("256\n", read(knob));
    assertEquals(List.of(tab(knob, "64")), agent.call("journal").lines());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void valuesKeepTheirSpacesAndTabs(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("tcp_rmem", "4096 87380 6291456");

    Result apply =
        agent.call("apply", tab("save", knob), tab("set", knob, "4096\t131072\t6291456 x  y"));

    assertEquals(List.of(tab("eff", knob, "4096\t131072\t6291456 x  y")), apply.lines());
    assertEquals("4096\t131072\t6291456 x  y\n", read(knob));
    assertEquals(List.of(tab(knob, "4096 87380 6291456")), agent.call("journal").lines());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aFailedWriteIsReportedAndTheOthersStillHappen(String shell, @TempDir Path dir)
      throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path first = agent.knob("first", "1");
    Path last = agent.knob("last", "2");
    Path notADir = agent.knob("regular", "x").resolve("sub");
    Path directory = Files.createDirectory(agent.knobPath("directory"));

    Result apply =
        agent.call(
            "apply",
            tab("save", first),
            tab("save", last),
            tab("set", first, "10"),
            tab("set", notADir, "5"),
            tab("set", directory, "6"),
            tab("set", last, "20"),
            tab("check", first));

    assertEquals(1, apply.rc());
    assertEquals("10\n", read(first));
    assertEquals("20\n", read(last));
    List<String> fails = apply.rest("fail");
    assertEquals(2, fails.size(), apply.lines().toString());
    assertTrue(fails.get(0).matches(notADir + "\t.+"), fails.get(0));
    // The shell's own words, without its "script: LINE:" prefix.
    assertTrue(fails.get(1).startsWith(directory + "\t"), fails.get(1));
    assertTrue(fails.get(1).endsWith("Is a directory"), fails.get(1));
    assertFalse(fails.get(1).contains(".sh:"), fails.get(1));
    assertEquals(
        List.of(
            tab(first, "10"),
            tab(notADir, ""),
            tab(directory, ""),
            tab(last, "20"),
            tab(first, "10")),
        apply.rest("eff"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aMalformedApplyTouchesNothing(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("nomerges", "0");

    Result apply = agent.call("apply", tab("save", knob), tab("set", knob, "2"), "sett\tx\ty");

    assertEquals(2, apply.rc());
    assertTrue(apply.stderr().contains("bad payload line"), apply.stderr());
    assertEquals("0\n", read(knob));
    assertFalse(Files.exists(agent.journal()));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void restoreWritesOriginalsBackInJournalOrder(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path scheduler = agent.knob("scheduler", "[none] mq-deadline kyber");
    Path readAhead = agent.knob("read_ahead_kb", "128");
    Path maxSectors = agent.knob("max_sectors_kb", "1280");
    agent.call(
        "apply",
        tab("save", scheduler),
        tab("save", readAhead),
        tab("set", readAhead, "4096"),
        tab("set", scheduler, "kyber"),
        tab("save", maxSectors),
        tab("set", maxSectors, "64"));

    Result restore = agent.call("restore");

    assertEquals(0, restore.rc(), restore.stderr());
    // A choice list is journaled as its selected entry, which is what the kernel accepts.
    assertEquals(
        List.of(
            tab("restored", scheduler, "none"),
            tab("restored", readAhead, "128"),
            tab("restored", maxSectors, "1280")),
        restore.lines());
    assertEquals("none\n", read(scheduler));
    assertEquals("128\n", read(readAhead));
    assertEquals("1280\n", read(maxSectors));
    assertFalse(Files.exists(agent.journal()));
    assertEquals(List.of(), agent.call("restore").lines());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void restoreKeepsOnlyTheLinesItCouldNotWrite(String shell, @TempDir Path dir) throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path good = agent.knob("good", "changed");
    Path directory = Files.createDirectory(agent.knobPath("directory"));
    Path gone = agent.knobPath("gone");
    agent.createState();
    String boot = AgentHarness.bootId();
    write(
        agent.journal(),
        String.join(
            "\n",
            tab("#boot", boot),
            tab(directory, "7"),
            tab(good, "original"),
            tab(gone, "3"),
            ""));

    Result restore = agent.call("restore");

    assertEquals(1, restore.rc());
    assertEquals(3, restore.lines().size(), restore.lines().toString());
    assertTrue(
        restore.lines().get(0).startsWith(tab("fail", directory, "")), restore.lines().get(0));
    assertEquals(tab("restored", good, "original"), restore.lines().get(1));
    // A vanished path is a warning: nothing is left to restore there.
    assertEquals(tab("gone", gone), restore.lines().get(2));
    assertEquals("original\n", read(good));
    // The vanished path is dropped; the directory stays for a retry.
    assertEquals(List.of(tab("#boot", boot), tab(directory, "7")), journalLines(agent));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aJournalFromAnotherBootIsStaleAndDiscarded(String shell, @TempDir Path dir)
      throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("dirty_ratio", "20");
    agent.createState();
    String oldBoot = "00000000-dead-beef-0000-000000000000";
    write(agent.journal(), tab("#boot", oldBoot) + "\n" + tab(knob, "40") + "\n");

    Result restore = agent.call("restore");

    assertEquals(0, restore.rc(), restore.stderr());
    assertEquals(List.of(tab("stale", oldBoot)), restore.lines());
    assertEquals("20\n", read(knob));
    assertFalse(Files.exists(agent.journal()));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void applyStartsAFreshJournalOverAStaleOne(String shell, @TempDir Path dir) throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("dirty_ratio", "20");
    agent.createState();
    write(agent.journal(), tab("#boot", "old-boot") + "\n" + tab(knob, "40") + "\n");

    agent.call("apply", tab("save", knob), tab("set", knob, "5"));

    assertEquals(
        List.of(tab("#boot", AgentHarness.bootId()), tab(knob, "20")), journalLines(agent));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void savepairJournalsTheActiveHalfOfAPair(String shell, @TempDir Path dir) throws IOException {
    AgentHarness ratioActive = new AgentHarness(shell, dir.resolve("a"));
    Path bytes = ratioActive.knob("dirty_bytes", "0");
    Path ratio = ratioActive.knob("dirty_ratio", "20");
    ratioActive.call("apply", tab("savepair", bytes, ratio), tab("set", bytes, "1048576"));
    write(ratio, "0\n"); // what the kernel does when dirty_bytes is written
    ratioActive.call("apply", tab("savepair", bytes, ratio), tab("set", bytes, "2097152"));

    assertEquals(List.of(tab(ratio, "20")), ratioActive.call("journal").lines());

    AgentHarness bytesActive = new AgentHarness(shell, dir.resolve("b"));
    Path bytesB = bytesActive.knob("dirty_bytes", "104857600");
    Path ratioB = bytesActive.knob("dirty_ratio", "0");
    bytesActive.call("apply", tab("savepair", bytesB, ratioB), tab("set", ratioB, "10"));

    assertEquals(List.of(tab(bytesB, "104857600")), bytesActive.call("journal").lines());
  }
}
