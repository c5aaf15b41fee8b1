package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.agent.AgentSession;
import io.tunelab.agent.PathFailure;
import io.tunelab.agent.RestoreResult;
import io.tunelab.agents.AgentScript;
import io.tunelab.inventory.Inventory;
import io.tunelab.matrix.Matrix;
import io.tunelab.remote.Transport;
import io.tunelab.run.Captures;
import io.tunelab.run.InterruptedTeardown;
import io.tunelab.run.SshConnector;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ExperimentSummary;
import io.tunelab.store.ResultStore;
import io.tunelab.store.StoredExperiment;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tunelab restore}: replays the journal of originals the agent keeps on each host, so a
 * killed controller leaves nothing mistuned.
 */
@Command(
    name = "restore",
    mixinStandardHelpOptions = true,
    description =
        "Write back every original value journaled by an interrupted run: on this machine and,"
            + " with --hosts, on every host of the inventory. Then run the teardown of every"
            + " experiment the database still marks running (a killed controller's; on a"
            + " PostgreSQL database, this testbed's with no worker's live lease) and mark it"
            + " interrupted.")
final class RestoreCommand implements Callable<Integer> {
  @Mixin HostsOption hosts;

  @Mixin DatabaseOption db;

  @Option(
      names = "--discard",
      description =
          "Drop journal lines whose original cannot be written back (reported as discarded)"
              + " instead of keeping them for a later restore.")
  boolean discard;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    boolean local = !db.isUrl() && Files.exists(db.path());
    if (local) {
      checkStoredSteps();
    }
    Inventory inventory = hosts.file == null ? Inventory.empty() : Inventories.read(hosts.file);
    List<String> names = new ArrayList<>(List.of(Inventory.LOCAL));
    names.addAll(inventory.names());
    List<String> failures = new ArrayList<>();
    try (SshConnector connector = new SshConnector(inventory)) {
      for (String host : names) {
        try {
          Transport transport = connector.connect(host);
          restore(
              transport.host(),
              AgentSession.restoreOneShot(transport, AgentScript.load(), discard),
              out);
        } catch (TunelabException e) {
          out.println(e.getMessage());
          failures.add(host);
        }
      }
    }
    if (!failures.isEmpty() && local) {
      // A host refused is one a live run may hold (its agent lock): its experiment is not
      // interrupted, and tearing it down would pull the ground from under it.
      out.println(
          "experiments "
              + db.path()
              + " marks running are left alone until every host is restored");
    } else if (local) {
      try (ResultStore store = Databases.open(db.path())) {
        tearDown(store, failures, db.path().toString(), out);
      }
    } else if (failures.isEmpty() && db.isUrl()) {
      // A database many testbeds share holds the others' running experiments too: only this
      // testbed's, on this inventory's hosts, with no worker's live lease on them, are this
      // inventory's to tear down.
      String testbed = TestbedName.of(null, hosts.file);
      for (long id : Databases.leftRunning(db, testbed, Inventories.addresses(inventory))) {
        try (ResultStore store = Databases.openOn(db, id)) {
          tearDown(store, failures, db.given(), out);
        }
      }
    }
    if (!failures.isEmpty()) {
      throw new TunelabException(
          TunelabException.HOST_REFUSED,
          "not everything was restored on "
              + String.join(", ", failures)
              + "; the journal keeps what is left: run `tunelab restore` again once fixed");
    }
    return 0;
  }

  private void tearDown(ResultStore store, List<String> failures, String where, PrintWriter out) {
    Map<String, SshConnector> connectors = new HashMap<>();
    try {
      int left =
          InterruptedTeardown.run(
              store,
              m ->
                  connectors.computeIfAbsent(
                      m.source(), x -> new SshConnector(Inventories.forMatrix(hosts, m))),
              stored -> StoredSteps.jobFiles(store, stored),
              out::println);
      if (left > 0) {
        failures.add(left + " experiment(s) in " + where);
      }
    } finally {
      connectors.values().forEach(SshConnector::close);
    }
  }

  /**
   * Before any host is contacted: the teardown of a killed controller's experiment comes from the
   * database, which must be trusted with it ({@link StoredSteps}).
   */
  private void checkStoredSteps() {
    try (ResultStore store = Databases.open(db.path())) {
      for (ExperimentSummary e : store.experiments()) {
        if (e.status() == ExperimentStatus.RUNNING) {
          StoredSteps.requireTrusted(db.path());
          StoredExperiment stored = store.findExperiment(Long.toString(e.id())).orElseThrow();
          Matrix matrix;
          try {
            matrix = StoredSteps.matrix(store, stored);
          } catch (TunelabException unloadable) {
            // Its teardown cannot run at all and says so later: the journals are restored first.
            continue;
          }
          Captures.recheck(store, e.id(), matrix);
        }
      }
    }
  }

  private static void restore(String host, RestoreResult result, PrintWriter out) {
    for (String process : result.ended()) {
      out.println("host " + host + ": ended a process a previous agent left running: " + process);
    }
    for (RestoreResult.Restored r : result.restored()) {
      out.println("host " + host + ": restored " + r.path() + " = " + r.value());
    }
    for (String path : result.gone()) {
      out.println(
          "warning: host " + host + ": " + path + " is gone (and its setting with it); dropped");
    }
    for (RestoreResult.Restored r : result.discarded()) {
      out.println(
          "warning: host "
              + host
              + ": could not write back "
              + r.path()
              + " = "
              + r.value()
              + "; discarded as asked");
    }
    for (String boot : result.staleBoots()) {
      out.println(
          "host "
              + host
              + ": discarded a journal from an earlier boot ("
              + boot
              + "): the reboot already reset those settings");
    }
    List<PathFailure> failed = result.failures();
    for (PathFailure f : failed) {
      out.println("host " + host + ": could not restore " + f);
    }
    if (!failed.isEmpty()) {
      throw new TunelabException(
          TunelabException.HOST_REFUSED,
          "host " + host + ": " + failed.size() + " setting(s) not restored");
    }
    out.println(
        "host "
            + host
            + ": "
            + (result.restored().isEmpty()
                ? "nothing to restore"
                : result.restored().size() + " setting(s) restored"));
  }
}
