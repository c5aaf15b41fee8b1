package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import io.tunelab.testing.RepoFiles;
import io.tunelab.testing.SqliteQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The VM lab's guests (lab/vm) as tunelab sees them: two machines, each with its own kernel. */
@Integration
class VmLabTest {
  static Map<String, String> env;
  @TempDir Path dir;

  @BeforeAll
  static void up() throws Exception {
    env = VmLab.up();
  }

  @AfterAll
  static void down() throws Exception {
    VmLab.down(env);
  }

  @Test
  void hostsCheckPassesOnBothGuests() {
    Cli.Result r = Cli.tunelab("hosts", "check", "--hosts", VmLab.inventory().toString());

    assertEquals(0, r.code(), r.all());
    assertTrue(r.out().contains("server") && r.out().contains("client"), r.out());
  }

  @Test
  void aClientVmKnobLeavesTheServersValueAlone() throws Exception {
    String server = VmLab.ssh("server", "cat /proc/sys/vm/dirty_bytes");
    String client = VmLab.ssh("client", "cat /proc/sys/vm/dirty_bytes");
    String value = "0".equals(client) ? "33554432" : "0";
    Path m = dir.resolve("vm.yaml");
    // The workload runs on the server while the client's value is set: it fails the trial
    // unless the server still has its own.
    Files.writeString(
        m,
        """
        name: vm-lab-dirty-bytes
        roles: {server: server, client: client}
        matrix:
          client.vm.dirty_bytes: [VALUE]
        repeat: 1
        workload:
          on: server
          command: grep -qx SERVER /proc/sys/vm/dirty_bytes
        """
            .replace("VALUE", value)
            .replace("SERVER", server));
    Path db = dir.resolve("t.db");

    Cli.Result r =
        Cli.tunelab(
            "run", m.toString(), "--hosts", VmLab.inventory().toString(), "--db", db.toString());

    assertEquals(0, r.code(), r.all());
    assertEquals(
        List.of(List.of("client", "vm.dirty_bytes", value, value)),
        SqliteQuery.rows(db, "select host, knob, requested, effective from settings"));
    assertEquals(server, VmLab.ssh("server", "cat /proc/sys/vm/dirty_bytes"));
    assertEquals(client, VmLab.ssh("client", "cat /proc/sys/vm/dirty_bytes"));
    List<List<String>> boots =
        SqliteQuery.rows(db, "select host, boot_id from hosts order by host");
    assertEquals(
        List.of(
            List.of("client", VmLab.ssh("client", "cat /proc/sys/kernel/random/boot_id")),
            List.of("server", VmLab.ssh("server", "cat /proc/sys/kernel/random/boot_id"))),
        boots);
    assertNotEquals(boots.get(0).get(1), boots.get(1).get(1));
  }

  /**
   * The iSCSI target's thread count as an axis on the VM lab, docs/lab.md's example: a cell step on
   * the controller (the built-in host {@code local}) runs {@code lab/vm iothreads}; the workload on
   * the server sees the cell's count. The spare disk the env names is a disk of the client's.
   */
  @Test
  void aCellStepOnTheControllerSetsTheTargetsIoThreadsForEachCell() throws Exception {
    assertEquals("vdc", env.get("CLIENT_SPARE_DISK"));
    assertEquals("yes", VmLab.ssh("client", "test -b /dev/vdc && echo yes"));
    // docs/lab.md's example, as written there but for the checkout's path.
    String doc = Files.readString(RepoFiles.repoRoot().resolve("docs/lab.md"));
    int start = doc.indexOf("```yaml\nname: vm-lab-iothreads\n") + "```yaml\n".length();
    Path m = dir.resolve("iothreads.yaml");
    Files.writeString(
        m,
        doc.substring(start, doc.indexOf("```", start))
            .replace("/path/to/checkout/lab", VmLab.inventory().getParent().toString()));
    Path db = dir.resolve("iothreads.db");

    Cli.Result r =
        Cli.tunelab(
            "run", m.toString(), "--hosts", VmLab.inventory().toString(), "--db", db.toString());

    assertEquals(0, r.code(), r.all());
    assertEquals(
        List.of(List.of("2")),
        SqliteQuery.rows(db, "select count(*) from trials where status = 'ok'"));
    assertTrue(
        VmLab.ssh("server", "pgrep -a tgtd").contains("--nr_iothreads 16 "),
        "teardown put the default back");
  }

  @Test
  void aKernelAxisMeasuresEveryReleaseOnLikeBootsInInterleavedRoundsAndEndsHome() throws Exception {
    new VmKernelAxis(env, dir).likeBootsInterleavedAndBackHome();
  }

  @Test
  void aKernelNotInstalledIsRefusedBeforeAnythingIsTouched() throws Exception {
    new VmKernelAxis(env, dir).aKernelNotInstalledIsRefusedBeforeAnythingIsTouched();
  }

  @Test
  void aKernelThatDoesNotComeBackIsPowerCycledAndTheOtherKernelRuns() throws Exception {
    new VmKernelAxis(env, dir).aKernelThatDoesNotComeBackIsPowerCycledAndTheOthersRun();
  }

  @Test
  void aClientThatLosesPowerOnTheOtherKernelIsBootedIntoItAgainBeforeItsTrialRunsAgain()
      throws Exception {
    new VmKernelAxis(env, dir).anUnplannedRebootOntoTheDefaultKernelIsBootedBackIntoTheCellsOne();
  }

  @Test
  void aControllerKilledWhileAHostBootsIsResumedWithNothingLostOrDoubled() throws Exception {
    new VmKernelAxis(env, dir).aControllerKilledWhileAHostBootsIsResumed();
  }

  @Test
  void theClientLosesPowerMidRunAndTheRunFinishesWithEveryTrialOkOnce() throws Exception {
    new VmFaults(env, dir).theClientLosesPowerMidRun();
  }

  @Test
  void theServerHangsForTwentySecondsMidTrialAndNothingIsLost() throws Exception {
    new VmFaults(env, dir).theServerHangsForTwentySecondsMidTrial();
  }
}
