package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.inventory.Inventory;
import io.tunelab.run.SshConnector;
import io.tunelab.store.ProcessRecord;
import io.tunelab.store.TrialResult;
import io.tunelab.store.TrialStatus;
import io.tunelab.testing.Integration;
import io.tunelab.testing.TestTime;
import io.tunelab.trace.PhaseTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trial's jobs on the lab's two hosts over real SSH (lab/lab): they start together behind one
 * barrier across both, and a host that only monitors samples the whole workload.
 */
@Integration
class LabJobsTest {
  @RegisterExtension static final SshLabExtension LAB = new SshLabExtension();
  @TempDir Path dir;

  private WorkloadRun run(String matrix) throws Exception {
    return run(matrix, PhaseTrace.off());
  }

  private WorkloadRun run(String matrix, PhaseTrace trace) throws Exception {
    Path hosts = Lab.root().resolve("lab/hosts.yaml");
    Inventory inventory =
        Inventory.load(hosts.toString(), Files.readString(hosts), hosts.getParent().toString());
    try (SshConnector connector = new SshConnector(inventory)) {
      return WorkloadRun.of(
          dir,
          matrix
              .replace("SDISK", LAB.env().get("SERVER_DISK"))
              .replace("CDISK", LAB.env().get("CLIENT_DISK")),
          connector,
          trace);
    }
  }

  /** Per trial (not the final 0), per host, its agent requests in the order the trace has them. */
  private static Map<String, Map<String, List<String>>> requests(Path trace) throws Exception {
    Map<String, Map<String, List<String>>> byTrial = new TreeMap<>();
    for (String line : Files.readAllLines(trace)) {
      String[] f = line.split("\t");
      if (!f[0].equals("0") && !f[2].equals("-")) {
        byTrial
            .computeIfAbsent(f[0], t -> new TreeMap<>())
            .computeIfAbsent(f[2], h -> new ArrayList<>())
            .add(f[1]);
      }
    }
    return byTrial;
  }

  /**
   * The health checks and knob read-back cost no request of their own: a host that runs the trial's
   * process answers them with its {@code run} (or {@code start} and {@code wait}); only a host that
   * takes part with knobs alone gets one {@code health} after the workload.
   */
  @Test
  void aTrialAsksEachHostNoHealthOrReadRequestOfItsOwn() throws Exception {
    Path oneHost = dir.resolve("one-host.trace");
    WorkloadRun run =
        run(
            """
            name: lab-trace-one-host
            roles: {server: server, client: client}
            repeat: 2
            matrix:
              server.block.SDISK.read_ahead_kb: [128, 256]
              client.block.CDISK.read_ahead_kb: [512]
            workload:
              on: server
              command: "true"
            """,
            PhaseTrace.toFile(oneHost));

    assertEquals(4, run.summary().ok(), run.out().toString());
    Map<String, Map<String, List<String>>> seen = requests(oneHost);
    assertEquals(4, seen.size(), seen.toString());
    for (Map<String, List<String>> trial : seen.values()) {
      assertEquals(List.of("apply", "run"), trial.get("server"), seen.toString());
      assertEquals(List.of("apply", "health"), trial.get("client"), seen.toString());
    }

    Path twoHosts = dir.resolve("two-hosts.trace");
    run =
        run(
            """
            name: lab-trace-two-hosts
            roles: {server: server, client: client}
            repeat: 2
            matrix:
              server.block.SDISK.read_ahead_kb: [128, 256]
              client.block.CDISK.read_ahead_kb: [512]
            workload:
              jobs:
                a: { on: server, command: "true" }
                b: { on: client, command: "true" }
            """,
            PhaseTrace.toFile(twoHosts));

    assertEquals(4, run.summary().ok(), run.out().toString());
    seen = requests(twoHosts);
    assertEquals(4, seen.size(), seen.toString());
    for (Map<String, List<String>> trial : seen.values()) {
      for (String host : List.of("server", "client")) {
        assertEquals(List.of("apply", "start", "go", "wait"), trial.get(host), seen.toString());
      }
    }
  }

  private static ProcessRecord process(TrialResult trial, String name) {
    return trial.processes().stream()
        .filter(p -> p.process().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no process " + name + " in " + trial.processes()));
  }

  @Test
  void jobsOnTwoHostsStartTogetherAndEachKeepsItsHostAndClass() throws Exception {
    WorkloadRun run =
        run(
            """
            name: lab-two-jobs
            roles: {server: server, client: client}
            repeat: 2
            monitors:
              - { run: iostat, on: server, devices: [SDISK] }
            workload:
              duration: 2s
              timeout: 30s
              jobs:
                reader:
                  on: server
                  ionice: idle
                  parser: metrics
                  command: >-
                    echo start_ms $(($(date +%s%N) / 1000000));
                    dd if=/dev/SDISK of=/dev/null bs=4k count=1024 iflag=direct status=none
                sleeper:
                  on: client
                  ionice: be/2
                  parser: metrics
                  command: echo start_ms $(($(date +%s%N) / 1000000)); sleep 30
            """);

    assertEquals(2, run.summary().ok(), run.out().toString());
    for (TrialResult trial : run.results()) {
      assertEquals(TrialStatus.OK, trial.status(), trial.error());
      ProcessRecord reader = process(trial, "reader.0");
      ProcessRecord sleeper = process(trial, "sleeper.0");
      assertEquals(List.of("server", "idle"), List.of(reader.host(), reader.ionice()));
      assertEquals(
          List.of("client", "best-effort: prio 2"), List.of(sleeper.host(), sleeper.ionice()));
      assertFalse(reader.stopped(), "the reader ends by itself");
      assertTrue(sleeper.stopped(), "the duration stops the sleeper");
      assertTrue(
          sleeper.seconds() >= 1.9 && sleeper.seconds() < 2 + TestTime.seconds(3),
          sleeper.toString());
    }
    // both hosts are this machine: one clock, so the starts compare directly
    for (List<String> starts :
        run.rows(
            "select max(value) - min(value) from samples where metric = 'start_ms'"
                + " and job in ('reader.0', 'sleeper.0') group by trial_id")) {
      double skewMs = Double.parseDouble(starts.get(0));
      assertTrue(skewMs < TestTime.millis(300), "start skew " + skewMs + " ms");
    }
    assertTrue(run.sample("iostat@server:" + LAB.env().get("SERVER_DISK"), "r_per_s") > 0);
  }

  @Test
  void aHostThatOnlyMonitorsCoversTheWholeWorkload() throws Exception {
    WorkloadRun run =
        run(
            """
            name: lab-monitor-only
            roles: {server: server, client: client}
            monitors:
              - { run: vmstat, on: client }
            workload:
              on: server
              command: sleep 2.5
            """);

    assertEquals(1, run.summary().ok(), run.out().toString());
    TrialResult trial = run.results().get(0);
    long vmstatRows =
        trial.monitorRows().stream()
            .filter(r -> r.host().equals("client") && r.metric().equals("us"))
            .count();
    assertTrue(vmstatRows >= 2, trial.monitorRows().toString());
    assertTrue(run.sample("vmstat@client", "id") >= 0);
  }
}
