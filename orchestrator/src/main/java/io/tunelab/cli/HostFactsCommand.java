package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.agent.AgentSession;
import io.tunelab.agent.Facts;
import io.tunelab.agents.AgentScript;
import io.tunelab.inventory.Inventory;
import io.tunelab.run.SshConnector;
import io.tunelab.view.HostDescription;
import io.tunelab.view.HostFactsOutput;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tunelab hosts facts [HOST…]}: kernel, CPUs, memory, block devices with their models,
 * schedulers and queue limits, and the vm dirty settings of each host. Reads only.
 */
@Command(
    name = "facts",
    mixinStandardHelpOptions = true,
    description =
        "Show what to know before writing a matrix for a host: kernel and its config's hash,"
            + " CPUs with their model and cpufreq governor, memory, every block device with its"
            + " model and schedulers (the current one in brackets), read_ahead_kb,"
            + " max_sectors_kb, max_hw_sectors_kb and whether it is rotational, and the vm dirty"
            + " settings. Without HOST: every host of the inventory, or local without one."
            + " Reads only; exit 3 when a host cannot be asked.")
final class HostFactsCommand implements Callable<Integer> {
  @Parameters(
      paramLabel = "HOST",
      arity = "0..*",
      description = "local or a host of the inventory (default: all of them).")
  List<String> names = new ArrayList<>();

  @Mixin FormatOption format;

  @Mixin HostsOption hosts;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    boolean json = format.json();
    Inventory inventory = hosts.file == null ? Inventory.empty() : Inventories.read(hosts.file);
    List<String> chosen = new ArrayList<>(names);
    if (chosen.isEmpty()) {
      chosen.addAll(inventory.names().isEmpty() ? List.of(Inventory.LOCAL) : inventory.names());
    }
    for (String name : chosen) {
      if (!name.equals(Inventory.LOCAL)) {
        inventory.require(name); // an unknown host is bad usage, before any connection
      }
    }
    List<HostDescription> described = new ArrayList<>();
    Map<String, String> errors = new LinkedHashMap<>();
    try (SshConnector connector = new SshConnector(inventory)) {
      for (String name : chosen.stream().distinct().toList()) {
        try (AgentSession session =
            AgentSession.start(connector.connect(name), AgentScript.load())) {
          Facts facts = session.facts();
          described.add(
              HostDescriptions.of(name, facts, session.read(HostDescriptions.paths(facts))));
        } catch (TunelabException e) {
          errors.put(name, e.getMessage());
        }
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(json ? HostFactsOutput.json(described, errors) : HostFactsOutput.text(described));
    out.flush();
    if (!errors.isEmpty()) {
      List<String> lines = new ArrayList<>();
      errors.forEach(
          (host, error) ->
              lines.add(error.startsWith("host ") ? error : "host " + host + ": " + error));
      throw new TunelabException(TunelabException.HOST_REFUSED, String.join("\n", lines));
    }
    return 0;
  }
}
