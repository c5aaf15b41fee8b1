package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
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
        EndToEndTest.rows(db, "select host, knob, requested, effective from settings"));
    assertEquals(server, VmLab.ssh("server", "cat /proc/sys/vm/dirty_bytes"));
    assertEquals(client, VmLab.ssh("client", "cat /proc/sys/vm/dirty_bytes"));
    List<List<String>> boots =
        EndToEndTest.rows(db, "select host, boot_id from hosts order by host");
    assertEquals(
        List.of(
            List.of("client", VmLab.ssh("client", "cat /proc/sys/kernel/random/boot_id")),
            List.of("server", VmLab.ssh("server", "cat /proc/sys/kernel/random/boot_id"))),
        boots);
    assertNotEquals(boots.get(0).get(1), boots.get(1).get(1));
  }

  @Test
  void aKernelAxisBootsTheClientOnlyAsOftenAsThePlanNeeds() throws Exception {
    new VmKernelAxis(env, dir).bootsIntoTheOtherKernelOnceAndBack();
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
