package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.GoldenFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code plan --workload}: every process of a cell, resolved, before anything runs. */
class PlanWorkloadTest {
  @TempDir Path dir;

  @Test
  void everyProcessShowsItsResolvedCommandLine() throws IOException {
    Path m = dir.resolve("writers.yaml");
    Files.writeString(
        m,
        String.join(
            "\n",
            "name: writers",
            "setup:",
            "  - run: losetup -f --show /var/tmp/d.img",
            "    capture: dev",
            "matrix:",
            "  writers: [1, 2]",
            "  engine: [libaio, io_uring]",
            "exclude:",
            "  - { writers: 2, engine: io_uring }",
            "workload:",
            "  duration: 30s",
            "  timeout: 2m",
            "  jobs:",
            "    writer:",
            "      processes: ${writers}",
            "      ionice: be/7",
            "      dd: { input: /dev/zero, output: \"/mnt/t/w${proc}\", bs: 1M, total: 64MiB,"
                + " flags: [conv=fdatasync] }",
            "    reader:",
            "      fio: { rw: read, bs: 64k, ioengine: \"${engine}\", filename: \"/dev/${dev}\","
                + " size: 16M, direct: 1 }",
            ""));
    Cli.Result r = Cli.tunelab("plan", "--workload", m.toString());

    assertEquals(0, r.code(), r.all());
    GoldenFiles.assertMatches("plan/workload.txt", r.out());
  }

  @Test
  void aJobsOwnLimitsShowWhereTheyAreNotTheWorkloads() throws IOException {
    Path m = dir.resolve("limits.yaml");
    Files.writeString(
        m,
        String.join(
            "\n",
            "name: limits",
            "workload:",
            "  duration: 30s",
            "  timeout: 10m",
            "  stop_grace: 1m",
            "  jobs:",
            "    writer:",
            "      command: ./write",
            "    reader:",
            "      duration: 500ms",
            "      timeout: 2m",
            "      command: ./read",
            "    same:",
            "      duration: 30s",
            "      command: ./same",
            ""));
    Cli.Result r = Cli.tunelab("plan", "--workload", m.toString());

    assertEquals(0, r.code(), r.all());
    List<String> lines = r.out().lines().map(String::strip).toList();
    assertTrue(lines.contains("writer.0 on local: sh -c ./write"), r.out());
    assertTrue(
        lines.contains("reader.0 on local duration 0.5 s timeout 120 s: sh -c ./read"), r.out());
    assertTrue(lines.contains("same.0 on local: sh -c ./same"), r.out());
    assertTrue(lines.contains("duration 30 s"), r.out());
    assertTrue(lines.contains("stop grace 60 s"), r.out());
  }
}
