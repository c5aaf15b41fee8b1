package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.tab;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code health}: the figures a trial is checked with, and the kernel's lines since a cursor. The
 * kernel log is this machine's: the tests write a unique marker and look for it, not for silence.
 */
class HealthTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void snapshotNamesEveryFigure(String shell, @TempDir Path dir) {
    Result health = new AgentHarness(shell, dir).call("health");

    assertEquals(0, health.rc(), health.stderr());
    assertEquals(AgentHarness.bootId(), health.value("boot_id").orElseThrow());
    assertTrue(health.value("pswpin").orElseThrow().matches("[0-9]+"), health.lines().toString());
    assertTrue(health.value("pswpout").orElseThrow().matches("[0-9]+"));
    assertTrue(health.value("throttle").orElseThrow().matches("[0-9]*"));
    assertTrue(health.value("cpufreq").isPresent());
    assertTrue(health.value("disk_read").orElseThrow().matches("[0-9]+"));
    assertTrue(health.value("disk_written").orElseThrow().matches("[0-9]+"));
    assertEquals(List.of(), health.rest("klines"), "no cursor, no lines");
    assertTrue(
        health.value("cursor").orElse("kmsg:0").matches("(kmsg:[0-9]+|dmesg:[0-9.]+)"),
        health.lines().toString());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void warningsAfterTheCursorAreCountedInfoLinesAreNot(String shell, @TempDir Path dir)
      throws IOException {
    Tools.requireKernelLog(true);
    AgentHarness agent = new AgentHarness(shell, dir);
    String cursor = agent.call("health").value("cursor").orElseThrow();
    String marker = "tunelab-health-" + UUID.randomUUID();
    kmsg("<6>" + marker + " info");
    for (int i = 1; i <= 7; i++) {
      kmsg("<4>" + marker + " warning " + i + " " + "x".repeat(300));
    }

    Result after = agent.call("health", tab("cursor", cursor));

    assertEquals(0, after.rc(), after.stderr());
    List<String> mine = after.rest("kline").stream().filter(l -> l.contains(marker)).toList();
    assertEquals(5, mine.size(), after.lines().toString());
    assertTrue(mine.get(0).startsWith(marker + " warning 1 x"), mine.get(0));
    assertEquals(240, mine.get(0).length(), "each line capped");
    assertTrue(Integer.parseInt(after.value("klines").orElseThrow()) >= 7);
    assertTrue(after.rest("kline").stream().noneMatch(l -> l.contains(marker + " info")));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void withoutAReadableLogThereIsNoCursor(String shell, @TempDir Path dir) throws IOException {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    for (String tool : List.of("dd", "dmesg")) {
      Path fake = bin.resolve(tool);
      Files.writeString(fake, "#!/bin/sh\nexit 1\n");
      Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    AgentHarness agent =
        new AgentHarness(shell, dir).env("PATH", bin + ":" + System.getenv("PATH"));

    Result health = agent.call("health", tab("cursor", "kmsg:1"));

    assertEquals(0, health.rc(), health.stderr());
    assertEquals(List.of(), health.rest("cursor"));
    assertEquals(List.of(), health.rest("kline"));
    assertEquals("0", health.value("klines").orElseThrow());
    assertTrue(health.value("pswpin").orElseThrow().matches("[0-9]+"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aWriteThatReachesTheDiskIsInDiskWritten(String shell, @TempDir Path dir) throws Exception {
    AgentHarness agent = new AgentHarness(shell, dir);
    long before = Long.parseLong(agent.call("health").value("disk_written").orElseThrow());
    int mib = 8;
    Process dd =
        new ProcessBuilder(
                "dd",
                "if=/dev/zero",
                "of=" + dir.resolve("synced"),
                "bs=1M",
                "count=" + mib,
                "conv=fsync",
                "status=none")
            .inheritIO()
            .start();
    assertEquals(0, dd.waitFor());

    long after = Long.parseLong(agent.call("health").value("disk_written").orElseThrow());

    // Other writers on this machine only add to it.
    assertTrue(after - before >= mib << 20, before + " -> " + after);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aHealthAfterAServesBeforeSnapshotCountsItsDevices(String shell, @TempDir Path dir) {
    // The cursor kfile:3 names this serve's last before-snapshot (mark 3): its device set
    // stands; any other cursor looks the devices up anew.
    Result r =
        new AgentLibrary(shell, dir)
            .run(
                "PAYLOAD_OK=1; KMSG_FILE=; KMSG_MARK=3; HEALTH_DEVS=' set-by-before '\n"
                    + "for c in kfile:3 kfile:2; do\n"
                    + "  PAYLOAD=\"cursor$TAB$c$NL\"\n"
                    + "  verb_health >/dev/null\n"
                    + "  printf '%s|%s\\n' \"$c\" \"$HEALTH_DEVS\"\n"
                    + "done");

    assertEquals(0, r.rc(), r.stderr());
    assertEquals("kfile:3| set-by-before ", r.lines().get(0));
    assertTrue(r.lines().get(1).startsWith("kfile:2| "), r.lines().toString());
    assertFalse(r.lines().get(1).contains("set-by-before"), r.lines().toString());
  }

  private static void kmsg(String line) throws IOException {
    Files.writeString(Path.of("/dev/kmsg"), line + "\n");
  }
}
