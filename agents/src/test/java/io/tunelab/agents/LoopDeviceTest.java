package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.read;
import static io.tunelab.agents.AgentHarness.tab;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Side effects the kernel really has, on a loop device over a file of the test's own: a scheduler
 * switch resets nr_requests and iosched/* and bfq turns writeback throttling off; restore puts
 * causes back first, so the last write to every file is its original. Touches no other device.
 */
@Tag("integration") // needs root: loop devices, a state directory root owns
class LoopDeviceTest {

  /** The queue knobs the tests change, in the order they are put back. */
  private static final List<String> KNOBS =
      List.of("scheduler", "max_sectors_kb", "nr_requests", "read_ahead_kb", "wbt_lat_usec");

  /** A loop device attached for one test; close() puts its queue back and detaches it. */
  private static final class Loop implements AutoCloseable {
    final String dev;
    final Path queue;
    private final Map<String, String> originals = new LinkedHashMap<>();

    Loop(Path dir) throws IOException, InterruptedException {
      Tools.requireRoot();
      Tools.require("losetup");
      Path image = dir.resolve("disk.img");
      try (RandomAccessFile file = new RandomAccessFile(image.toFile(), "rw")) {
        file.setLength(16L << 20);
      }
      String device = run("losetup", "-f", "--show", image.toString());
      dev = device.substring(device.lastIndexOf('/') + 1);
      queue = Path.of("/sys/block", dev, "queue");
      for (String knob : KNOBS) {
        originals.put(knob, value(knob));
      }
    }

    /** The knob's value; a scheduler as its selected entry. */
    String value(String knob) {
      String text = read(queue.resolve(knob)).trim();
      return knob.equals("scheduler") ? text.replaceAll(".*\\[(.*)].*", "$1") : text;
    }

    void set(String knob, String value) throws IOException {
      Files.writeString(queue.resolve(knob), value + "\n");
    }

    @Override
    public void close() throws IOException, InterruptedException {
      try {
        for (Map.Entry<String, String> original : originals.entrySet()) {
          if (!value(original.getKey()).equals(original.getValue())) {
            set(original.getKey(), original.getValue());
          }
        }
      } finally {
        run("losetup", "-d", "/dev/" + dev);
      }
    }

    private static String run(String... command) throws IOException, InterruptedException {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(Tools.millis(30000), TimeUnit.MILLISECONDS)
          || process.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", command) + ": " + out);
      }
      return out.trim();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aSchedulerSwitchAndBackLeavesEveryQueueFileAsItWas(String shell, @TempDir Path dir)
      throws Exception {
    try (Loop loop = new Loop(dir)) {
      AgentHarness agent = new AgentHarness(shell, dir.resolve("agent"));
      // The host's own configuration: a tuned mq-deadline.
      loop.set("scheduler", "mq-deadline");
      loop.set("iosched/read_expire", "100");
      loop.set("nr_requests", "64");
      String wbt = loop.value("wbt_lat_usec");
      String offered = read(loop.queue.resolve("scheduler"));
      String other = offered.contains("bfq") ? "bfq" : offered.contains("kyber") ? "kyber" : "none";
      Path q = loop.queue;

      // No save lines: the agent journals on its own. The first write is to a dependent.
      Result first = agent.call("apply", tab("set", q.resolve("iosched/read_expire"), "200"));
      Result second = agent.call("apply", tab("set", q.resolve("scheduler"), other));
      List<String> journal = agent.call("journal").lines();
      Result restore = agent.call("restore");

      assertEquals(0, first.rc(), first.stderr());
      assertEquals(0, second.rc(), second.stderr());
      assertTrue(journal.contains(tab(q.resolve("wbt_lat_usec"), wbt)), journal.toString());
      assertTrue(journal.contains(tab(q.resolve("nr_requests"), "64")), journal.toString());
      assertEquals(0, restore.rc(), restore.lines() + restore.stderr());
      assertEquals(tab("restored", q.resolve("scheduler"), "mq-deadline"), restore.lines().get(0));
      assertEquals("mq-deadline", loop.value("scheduler"));
      assertEquals("100", loop.value("iosched/read_expire"));
      assertEquals("64", loop.value("nr_requests"));
      assertEquals(wbt, loop.value("wbt_lat_usec"));
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void maxSectorsDownAndRestoreGivesTheOriginalReadAhead(String shell, @TempDir Path dir)
      throws Exception {
    try (Loop loop = new Loop(dir)) {
      AgentHarness agent = new AgentHarness(shell, dir.resolve("agent"));
      String readAhead = loop.value("read_ahead_kb");
      String maxSectors = loop.value("max_sectors_kb");
      Path q = loop.queue;

      Result down = agent.call("apply", tab("set", q.resolve("max_sectors_kb"), "64"));
      List<String> journal = agent.call("journal").lines();
      Result more = agent.call("apply", tab("set", q.resolve("read_ahead_kb"), "4096"));
      Result restore = agent.call("restore");

      assertEquals(0, down.rc(), down.stderr());
      assertEquals(0, more.rc(), more.stderr());
      assertEquals(
          List.of(
              tab(q.resolve("max_sectors_kb"), maxSectors),
              tab(q.resolve("read_ahead_kb"), readAhead)),
          journal);
      assertEquals(0, restore.rc(), restore.lines() + restore.stderr());
      assertEquals(maxSectors, loop.value("max_sectors_kb"));
      assertEquals(readAhead, loop.value("read_ahead_kb"));
    }
  }
}
