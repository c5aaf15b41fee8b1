package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.tab;
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

/**
 * The test hook {@code fake-boot-id} in an explicit TUNELAB_STATE: a reboot as the agent sees one,
 * without rebooting — a new boot id in facts, and the old boot's journal discarded.
 */
class FakeBootTest {
  private static final String FAKE = "0badb007-0000-4000-8000-000000000001";

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aFakeBootIdIsReportedAndMakesTheJournalOfTheRealBootStale(String shell, @TempDir Path dir)
      throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("dirty_ratio", "20");
    assertEquals(0, agent.call("apply", tab("set", knob, "5")).rc());

    Files.writeString(agent.state().resolve("fake-boot-id"), FAKE + "\n");
    Result facts = agent.call("facts");
    Result restore = agent.call("restore");

    assertEquals(FAKE, facts.value("boot_id").orElseThrow(), facts.toString());
    assertEquals(List.of(tab("stale", AgentHarness.bootId())), restore.lines());
    assertEquals("5\n", Files.readString(knob), "a faked reboot resets nothing");
    assertFalse(Files.exists(agent.journal()));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void somethingElseThanABootIdIsIgnored(String shell, @TempDir Path dir) throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    agent.createState();
    Files.writeString(agent.state().resolve("fake-boot-id"), "$(reboot)\n");

    Result facts = agent.call("facts");

    assertEquals(AgentHarness.bootId(), facts.value("boot_id").orElseThrow());
    assertTrue(facts.stderr().contains("ignoring"), facts.stderr());
  }
}
