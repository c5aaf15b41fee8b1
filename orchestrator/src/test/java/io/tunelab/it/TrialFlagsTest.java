package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Health flags for real on this machine: workloads that write to the kernel log, rewrite a knob the
 * cell set, or read what the page cache holds, on a loop disk the test creates. The kernel log is
 * shared with everything else on the machine, so a {@code dmesg} flag is told by the test's own
 * marker in its detail.
 */
@Integration
class TrialFlagsTest {
  @TempDir Path dir;
  @RegisterExtension final LoopDiskExtension disks = new LoopDiskExtension(16);
  LoopDisk disk;
  final String marker = "tunelab-test " + UUID.randomUUID();

  @BeforeEach
  void disk() throws Exception {
    disk = disks.disk();
  }

  /** A matrix whose {@code loud} cell's workload logs the marker at level warning. */
  private WorkloadRun kmsgRun(String onFlag, int repeat) {
    return WorkloadRun.of(
        dir,
        """
        name: kmsg
        on_flag: ON_FLAG
        repeat: REPEAT
        matrix:
          mode: [quiet, loud]
        workload:
          command: test ${mode} = quiet || printf '<4>MARKER\\n' > /dev/kmsg
        """
            .replace("ON_FLAG", onFlag)
            .replace("REPEAT", String.valueOf(repeat))
            .replace("MARKER", marker));
  }

  /** Per trial in run order: its mode and how many of its dmesg flags hold the marker. */
  private List<List<String>> markedTrials(WorkloadRun run) throws Exception {
    return run.rows(
        "select p.value, (select count(*) from trial_flags f where f.trial_id = t.id"
            + " and f.flag = 'dmesg' and f.host = 'local' and instr(f.detail, '"
            + marker
            + "') > 0) from trials t join cell_params p on p.cell_id = t.cell_id"
            + " order by t.id");
  }

  @Test
  void aWorkloadThatWritesToTheKernelLogIsFlaggedOnExactlyItsTrials() throws Exception {
    WorkloadRun run = kmsgRun("keep", 2);

    assertEquals(4, run.summary().ok(), run.out().toString());
    assertEquals(
        List.of(
            List.of("quiet", "0"),
            List.of("quiet", "0"),
            List.of("loud", "1"),
            List.of("loud", "1")),
        markedTrials(run));
    assertEquals(
        List.of(List.of("quiet", "2"), List.of("loud", "2")),
        run.rows(
            "select p.value, st.n from cell_stats st join cell_params p on p.cell_id = st.cell_id"
                + " where st.job = 'all' and st.metric = 'seconds' order by st.cell_id"),
        "keep: flagged trials count");
    assertTrue(
        run.out().stream().anyMatch(l -> l.contains("(flagged: dmesg on local)")),
        run.out().toString());
  }

  @Test
  void excludeLeavesFlaggedTrialsOutOfTheStatistics() throws Exception {
    WorkloadRun run = kmsgRun("exclude", 3);

    assertEquals(6, run.summary().ok(), run.out().toString());
    assertEquals(
        List.of(List.of("quiet", "3")),
        run.rows(
            "select p.value, st.n from cell_stats st join cell_params p on p.cell_id = st.cell_id"
                + " where st.job = 'all' and st.metric = 'seconds' order by st.cell_id"));
    assertEquals(List.of(List.of("exclude")), run.rows("select on_flag from experiments"));
  }

  @Test
  void rerunRunsAFlaggedTrialAgainOnceAndKeepsTheFlaggedRunAsAnAttempt() throws Exception {
    WorkloadRun run = kmsgRun("rerun", 1);

    assertEquals(2, run.summary().ok(), run.out().toString());
    List<List<String>> attempts =
        run.rows(
            "select p.value, a.attempt, a.status, coalesce(a.error, '') from trial_attempts a"
                + " join trials t on t.id = a.trial_id join cell_params p on p.cell_id = t.cell_id"
                + " order by a.trial_id, a.attempt");
    List<List<String>> loud = attempts.stream().filter(r -> r.get(0).equals("loud")).toList();
    assertEquals(2, loud.size(), attempts.toString());
    assertEquals(List.of("loud", "1", "ok"), loud.get(0).subList(0, 3));
    assertTrue(loud.get(0).get(3).startsWith("flagged: dmesg on local"), loud.toString());
    assertEquals(List.of("loud", "2", "ok", ""), loud.get(1));
    // Flagged again when run again: the second run's flags are the trial's.
    assertEquals(List.of(List.of("quiet", "0"), List.of("loud", "1")), markedTrials(run));
    assertTrue(
        run.out().stream().anyMatch(l -> l.contains("running it again (on_flag: rerun)")),
        run.out().toString());
  }

  @Test
  void aWorkloadThatRewritesACellsKnobGetsKnobDriftAndTheKnobIsRestoredAllTheSame()
      throws Exception {
    String original = disk.queue("read_ahead_kb");
    String applied = original.equals("256") ? "512" : "256";
    String rewritten = original.equals("4096") ? "2048" : "4096";
    WorkloadRun run =
        WorkloadRun.of(
            dir,
            """
            name: drift
            repeat: 2
            settings:
              local.block.DEV.read_ahead_kb: APPLIED
            workload:
              command: echo REWRITTEN > /sys/block/DEV/queue/read_ahead_kb
            """
                .replace("DEV", disk.dev)
                .replace("APPLIED", applied)
                .replace("REWRITTEN", rewritten));

    assertEquals(2, run.summary().ok(), run.out().toString());
    String detail =
        "block."
            + disk.dev
            + ".read_ahead_kb applied "
            + applied
            + ", read "
            + rewritten
            + " after the trial";
    assertEquals(
        List.of(List.of("local", detail), List.of("local", detail)),
        run.rows(
            "select host, detail from trial_flags where flag = 'knob_drift' order by trial_id"));
    // The drift is not believed away: the second trial writes the knob again.
    assertEquals(
        List.of(List.of("1"), List.of("1")),
        run.rows("select written from settings order by trial_id"));
    assertEquals(original, disk.queue("read_ahead_kb"), "restored at the end");
  }

  @Test
  void aBufferedReadOfAJustWrittenFileIsFlaggedCacheADirectReadOfTheLoopDiskIsNot()
      throws Exception {
    Path file = dir.resolve("just-written");
    WorkloadRun run =
        WorkloadRun.of(
            dir,
            """
            name: cache
            repeat: 3
            setup:
              - run: dd if=/dev/urandom of=FILE bs=1M count=16 status=none
            matrix:
              read:
                buffered: {input: FILE, iflag: fullblock}
                direct: {input: /dev/DEV, iflag: direct}
            workload:
              # dd's flags are fixed in a dd job; the metrics parser reads the bytes it read.
              command: >-
                dd if=${input} of=/dev/null bs=1M count=16 iflag=${iflag} 2>&1
                | sed -n 's/^\\([0-9]*\\) bytes .*/read_bytes \\1 B/p'
              parser: metrics
            """
                .replace("FILE", file.toString())
                .replace("DEV", disk.dev));

    assertEquals(6, run.summary().ok(), run.out().toString());
    List<List<String>> trials =
        run.rows(
            "select p.value, (select count(*) from trial_flags f where f.trial_id = t.id"
                + " and f.flag = 'cache' and f.host = 'local') from trials t"
                + " join cell_params p on p.cell_id = t.cell_id and p.name = 'read'"
                + " order by t.id");
    long buffered = trials.stream().filter(r -> r.equals(List.of("buffered", "1"))).count();
    long direct = trials.stream().filter(r -> r.equals(List.of("direct", "1"))).count();
    assertTrue(buffered >= 2, trials.toString());
    assertEquals(0, direct, trials.toString());
    List<List<String>> details =
        run.rows("select detail from trial_flags where flag = 'cache' order by trial_id limit 1");
    assertTrue(
        details.get(0).get(0).startsWith("reads: workload 16 MiB (local 16 MiB), block devices "),
        details.toString());
    Cli.Result report = Cli.tunelab("report", "--db", run.db().toString());
    assertTrue(
        report.out().contains("trial(s) flagged: cache " + buffered + " (local)"), report.all());
  }

  /** The cache flags of each trial of a dd job's run, in run order. */
  private List<List<String>> ddCacheFlags(String name, String dd) throws Exception {
    Path runDir = Files.createDirectories(dir.resolve(name));
    WorkloadRun run =
        WorkloadRun.of(
            runDir,
            """
            name: NAME
            repeat: 3
            setup:
              - run: dd if=/dev/urandom of=FILE bs=1M count=16 status=none
            workload:
              dd: DD
            """
                .replace("NAME", name)
                .replace("FILE", dir.resolve("just-written").toString())
                .replace("DD", dd));
    assertEquals(3, run.summary().ok(), run.out().toString());
    return run.rows(
        "select (select count(*) from trial_flags f where f.trial_id = t.id"
            + " and f.flag = 'cache') from trials t order by t.id");
  }

  @Test
  void aDdJobTellsItsDirectionItsBufferedReadIsFlaggedItsDirectReadIsNot() throws Exception {
    List<List<String>> buffered =
        ddCacheFlags(
            "buffered",
            "{input: " + dir.resolve("just-written") + ", output: /dev/null, bs: 1M, count: 16}");
    List<List<String>> direct =
        ddCacheFlags(
            "direct",
            "{input: /dev/"
                + disk.dev
                + ", output: /dev/null, bs: 1M, count: 16, flags: [iflag=direct]}");

    assertTrue(
        buffered.stream().filter(r -> r.equals(List.of("1"))).count() >= 2, buffered.toString());
    assertEquals(List.of(List.of("0"), List.of("0"), List.of("0")), direct);
  }
}
