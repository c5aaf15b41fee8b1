package io.tunelab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agent.AgentSession;
import io.tunelab.agent.Facts;
import io.tunelab.inventory.BootSpec;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixLoader;
import io.tunelab.plan.BootPlan;
import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.remote.Transport;
import io.tunelab.store.Boot;
import io.tunelab.store.StoredPlan;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.LocalAgent;
import io.tunelab.testing.TestTime;
import io.tunelab.trace.PhaseTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel axis's rules for a host that does not boot as asked, with the real agent on this
 * machine as host {@code client}: its boot command is a harmless {@code touch}, so it never goes
 * down and keeps its boot id.
 */
class HostBootsTest {
  private static final String OTHER = "6.1.0-99-other-amd64";

  @TempDir Path dir;
  private final List<String> lines = new ArrayList<>();

  @Test
  void aHostThatStillAnswersOnItsOldBootIsNotPowerCycledAndItsTrialsFailWithTheReason()
      throws Exception {
    try (Run run = new Run()) {
      String bootId = run.states.get("client").bootId();

      Optional<String> why = run.boots.prepare(run.cell(OTHER), 1);

      assertTrue(why.isPresent(), lines.toString());
      assertTrue(
          why.get().contains("never went down: it still answers on boot " + bootId), why.get());
      assertTrue(why.get().endsWith("so it is not power-cycled"), why.get());
      assertTrue(Files.exists(dir.resolve("asked")), "the boot command ran on the host");
      assertFalse(Files.exists(dir.resolve("cycled")), "power_cycle was not run");
      assertEquals(bootId, run.states.get("client").bootId());
      assertEquals(
          List.of("start up", "kernel failed"),
          run.store.boots(run.id).stream()
              .map(b -> b.reason().text() + " " + b.state().text())
              .toList());
      // The host is usable again: its session answers.
      assertEquals(bootId, run.hosts.session("client").facts().get("boot_id"));
    }
  }

  @Test
  void theRebootLoopGuardCountsTheBootsOfThisPassOnly() throws Exception {
    try (Run first = new Run()) {
      // Earlier passes (a run, then two resumes after --max-time) booted it many times.
      for (int i = 0; i < 6; i++) {
        long b =
            first.store.startBoot(
                first.id, "client", OTHER, "command", Boot.Reason.KERNEL, 1, "before" + i);
        first.store.finishBoot(b, Boot.State.UP, "after" + i, null);
      }
      HostBoots resumed = first.boots();

      Optional<String> why = resumed.prepare(first.cell(OTHER), 1);

      assertTrue(why.orElse("").contains("never went down"), why + " " + lines);
    }
  }

  @Test
  void aHostOnAnotherReleaseThanItsCellsIsBootedAndNeverMeasuredThere() throws Exception {
    try (Run run = new Run()) {
      Cell other = run.cell(OTHER);
      String running = run.states.get("client").release();

      assertTrue(run.boots.needed(other, 1));
      assertEquals(
          Optional.of("host client runs " + running + ", not the cell's " + OTHER),
          run.boots.wrongRelease(other, 1));
      assertEquals(Optional.empty(), run.boots.wrongRelease(run.cell(running), 1));
    }
  }

  @Test
  void underLikeBootsTheStartReleaseIsMeasuredOnlyOnABootTheRunMade() throws Exception {
    try (Run run = new Run()) {
      String running = run.states.get("client").release();
      String bootId = run.states.get("client").bootId();

      assertTrue(run.boots.needed(run.cell(running), 1), "the boot it started on measures nothing");

      // A resumed run finds the host on a boot an earlier pass made into that release.
      long b =
          run.store.startBoot(run.id, "client", running, "kexec", Boot.Reason.KERNEL, 1, "before");
      run.store.finishBoot(b, Boot.State.UP, bootId, null);
      HostBoots resumed = run.boots();
      assertFalse(resumed.needed(run.cell(running), 1), "a boot of the run measures");

      // The host rebooted by itself on that release: booted again before its next trial.
      run.states.back("client", facts("boot-of-its-own", running));
      assertTrue(resumed.needed(run.cell(running), 1), "a boot the run did not make");
    }
  }

  @Test
  void aBootIsPlannedWhenTheRunMadeItAndNotWhenTheHostRebootedByItself() {
    HostState state = new HostState("client", facts("boot-1", "6.1.0-1"), Map.of());
    assertFalse(state.planned(), "the boot the experiment started on");

    state.booted(facts("boot-2", "6.1.0-2"), 1);
    assertTrue(state.planned());
    assertEquals(HostState.Return.SAME_BOOT, state.back(facts("boot-2", "6.1.0-2")));
    assertTrue(state.planned(), "a lost connection is no boot");
    state.back(facts("boot-3", "6.1.0-2"));
    assertFalse(state.planned(), "rebooted by itself");
    state.resumeRound(2);
    assertTrue(state.planned(), "a boot an earlier pass recorded");
  }

  @Test
  void aHostBackOnAnotherReleaseIsToldApartFromOneBackOnTheSameBoot() {
    Facts a = facts("boot-1", "6.1.0-1");
    HostState state = new HostState("client", a, Map.of("vm.dirty_ratio", "20"));

    assertEquals(HostState.Return.SAME_BOOT, state.back(facts("boot-1", "6.1.0-1")));
    assertEquals(HostState.Return.NEW_BOOT, state.back(facts("boot-2", "6.1.0-1")));
    assertEquals(HostState.Return.OTHER_RELEASE, state.back(facts("boot-3", "6.1.0-2")));
    assertEquals("6.1.0-2", state.release());
    assertEquals("20", state.knobs().original("vm.dirty_ratio"), "an unplanned boot keeps them");
  }

  private static Facts facts(String bootId, String release) {
    return new Facts(Map.of("boot_id", bootId, "kernel_release", release), Map.of());
  }

  /** An experiment of client.kernel [this machine's release, OTHER] on the local agent. */
  private final class Run implements AutoCloseable {
    final JdbcResultStore store = JdbcResultStore.open(dir.resolve("t.db"));
    final Hosts hosts;
    final HostStates states;
    final List<Cell> cells;
    final Matrix matrix;
    final ExperimentPlan plan;
    final long id;
    final HostBoots boots;
    private final RunContext context;

    Run() throws Exception {
      HostConnector connector =
          new HostConnector() {
            @Override
            public Transport connect(String host) {
              return new LocalAgent(dir.resolve(host));
            }

            @Override
            public BootSpec boot(String host) {
              return new BootSpec(
                  BootSpec.Method.COMMAND,
                  "touch " + dir.resolve("asked"),
                  TestTime.scaled(Duration.ofSeconds(5)),
                  "touch " + dir.resolve("cycled"));
            }
          };
      hosts = Hosts.connect(Map.of("client", "client"), connector);
      Map<String, Facts> facts = hosts.parallel(AgentSession::facts);
      String running = facts.get("client").kernelRelease();
      matrix =
          MatrixLoader.load(
              "k.yaml",
              "name: k\nroles: {client: client}\nmatrix:\n  client.kernel: ["
                  + running
                  + ", "
                  + OTHER
                  + "]\nworkload: {on: client, command: 'true'}\n");
      plan = ExperimentPlan.of(matrix);
      cells = plan.cells();
      StoredPlan stored = store.storePlan(plan, "test");
      id = stored.experimentId();
      states = new HostStates(facts, Map.of(), matrix.roles(), Map.of(), store, id);
      context =
          new RunContext(
              hosts,
              states,
              connector,
              store,
              id,
              lines::add,
              () -> false,
              Clock.systemUTC(),
              PhaseTrace.off());
      boots = boots();
    }

    HostBoots boots() {
      return new HostBoots(
          context, BootPlan.of(matrix), cells, plan.trials(), host -> Optional.empty());
    }

    Cell cell(String release) {
      BootPlan bootPlan = BootPlan.of(matrix);
      return cells.stream()
          .filter(c -> bootPlan.wants(c, 1).get("client").release().equals(release))
          .findFirst()
          .orElseThrow();
    }

    @Override
    public void close() {
      hosts.close();
      store.close();
    }
  }
}
