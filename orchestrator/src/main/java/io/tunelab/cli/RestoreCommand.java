package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.agent.AgentResponse;
import io.tunelab.agent.AgentSession;
import io.tunelab.agents.AgentScript;
import io.tunelab.inventory.Inventory;
import io.tunelab.run.InterruptedTeardown;
import io.tunelab.run.SshConnector;
import io.tunelab.store.SqliteResultStore;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
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
            + " experiment the database still marks running (a killed controller's) and mark"
            + " it interrupted.")
final class RestoreCommand implements Callable<Integer> {
  @Mixin HostsOption hosts;

  @Mixin DatabaseOption db;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Inventory inventory = hosts.file == null ? Inventory.empty() : Inventories.read(hosts.file);
    List<String> names = new ArrayList<>(List.of(Inventory.LOCAL));
    names.addAll(inventory.names());
    List<String> failures = new ArrayList<>();
    try (SshConnector connector = new SshConnector(inventory)) {
      for (String host : names) {
        try {
          restore(
              AgentSession.oneShot(connector.connect(host), AgentScript.load(), "restore"), out);
        } catch (TunelabException e) {
          out.println(e.getMessage());
          failures.add(host);
        }
      }
    }
    if (Files.exists(db.path())) {
      try (SqliteResultStore store = SqliteResultStore.open(db.path())) {
        Map<String, SshConnector> connectors = new HashMap<>();
        try {
          int left =
              InterruptedTeardown.run(
                  store,
                  m ->
                      connectors.computeIfAbsent(
                          m.source(), x -> new SshConnector(Inventories.forMatrix(hosts, m))),
                  path -> MatrixFiles.beside(Path.of(path)),
                  out::println);
          if (left > 0) {
            failures.add(left + " experiment(s) in " + db.path());
          }
        } finally {
          connectors.values().forEach(SshConnector::close);
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

  private static void restore(AgentResponse response, PrintWriter out) {
    String host = response.host();
    int restored = 0;
    for (String[] row : response.rows("restored", 3)) {
      out.println("host " + host + ": restored " + row[1] + " = " + (row.length > 2 ? row[2] : ""));
      restored++;
    }
    for (String[] row : response.rows("stale", 2)) {
      out.println(
          "host "
              + host
              + ": discarded a journal from an earlier boot ("
              + row[1]
              + "): the reboot already reset those settings");
    }
    List<String[]> failed = response.rows("fail", 3);
    for (String[] row : failed) {
      out.println(
          "host " + host + ": could not restore " + row[1] + ": " + (row.length > 2 ? row[2] : ""));
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
            + (restored == 0 ? "nothing to restore" : restored + " setting(s) restored"));
  }
}
