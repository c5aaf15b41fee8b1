package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import io.tunelab.testing.SqliteQuery;
import io.tunelab.testing.TestTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The noise checks on this machine, with a tuner running: a harmless process the kernel calls
 * {@code bpftune} (a copy of sleep by that name), ended by its pid after each test.
 */
@Integration
class NoiseChecksTest {
  @TempDir Path dir;
  @RegisterExtension final LoopDiskExtension disks = new LoopDiskExtension(16);
  LoopDisk disk;
  Process bpftune;

  @BeforeEach
  void start() throws Exception {
    disk = disks.disk();
    Path copy = dir.resolve("bpftune");
    Files.copy(Path.of("/bin/sleep"), copy);
    copy.toFile().setExecutable(true);
    bpftune = new ProcessBuilder(copy.toString(), "600").start();
  }

  @AfterEach
  void stop() throws Exception {
    if (bpftune != null) {
      bpftune.destroy();
      bpftune.waitFor(TestTime.millis(10_000), TimeUnit.MILLISECONDS);
    }
  }

  @Test
  void hostsCheckBenchmarkNamesTheRunningTunerAndJudgesEveryCheckOkOrWarn() throws Exception {
    Cli.Result r = Cli.tunelab("hosts", "check", "--benchmark", "--format", "json");

    assertEquals(0, r.code(), r.all());
    JsonNode rows = new ObjectMapper().readTree(r.out());
    Map<String, List<String>> checks = new TreeMap<>();
    for (JsonNode row : rows) {
      checks
          .computeIfAbsent(row.get("host").asText(), h -> new ArrayList<>())
          .add(row.get("check").asText());
      String status = row.get("status").asText();
      assertTrue(status.equals("ok") || status.equals("warn"), row.toString());
      assertEquals(status.equals("ok"), row.get("fix").isNull(), row.toString());
    }
    assertEquals(List.of("local"), List.copyOf(checks.keySet()));
    assertTrue(checks.get("local").size() >= 8, checks.toString());
    JsonNode tuners = null;
    for (JsonNode row : rows) {
      if (row.get("check").asText().equals("tuners")) {
        tuners = row;
      }
    }
    assertEquals("warn", tuners.get("status").asText(), tuners.toString());
    assertTrue(
        tuners.get("detail").asText().contains("bpftune (pid " + bpftune.pid() + ")"),
        tuners.toString());
    assertTrue(tuners.get("fix").asText().contains("kill " + bpftune.pid()), tuners.toString());
  }

  private Path matrix(String noise) throws Exception {
    Path matrix = dir.resolve("noise.yaml");
    Files.writeString(
        matrix,
        """
        name: noisy
        noise: NOISE
        setup:
          - run: touch MARK
        settings:
          local.block.DEV.read_ahead_kb: 512
        workload:
          command: "true"
        """
            .replace("NOISE", noise)
            .replace("MARK", dir.resolve("setup-ran").toString())
            .replace("DEV", disk.dev));
    return matrix;
  }

  @Test
  void strictRefusesToStartAndChangesNothing() throws Exception {
    String before = disk.queue("read_ahead_kb");
    Path db = dir.resolve("strict.db");

    Cli.Result r = Cli.tunelab("run", matrix("strict").toString(), "--db", db.toString());

    assertEquals(3, r.code(), r.all());
    assertTrue(r.err().contains("noise: strict: "), r.all());
    assertTrue(r.err().contains("host local: tuners: bpftune (pid " + bpftune.pid()), r.all());
    assertTrue(r.err().contains("fix: systemctl stop bpftune"), r.all());
    assertFalse(Files.exists(dir.resolve("setup-ran")), "setup did not run");
    assertEquals(before, disk.queue("read_ahead_kb"), "no knob written");
  }

  @Test
  void aRunPrintsTheWarningsOnceAndRecordsTheChecksAsFacts() throws Exception {
    Path db = dir.resolve("warn.db");

    Cli.Result r = Cli.tunelab("run", matrix("warn").toString(), "--db", db.toString());

    assertEquals(0, r.code(), r.all());
    long lines = r.all().lines().filter(l -> l.contains("tuners: bpftune (pid ")).count();
    assertEquals(1, lines, r.all());
    List<List<String>> facts =
        SqliteQuery.rows(
            db, "select key, value from host_facts where key like 'noise.%' order by key");
    assertTrue(facts.size() >= 8, facts.toString());
    assertTrue(
        facts.stream()
            .anyMatch(
                f ->
                    f.get(0).equals("noise.tuners")
                        && f.get(1).startsWith("warn: bpftune (pid " + bpftune.pid() + ")")),
        facts.toString());
  }
}
