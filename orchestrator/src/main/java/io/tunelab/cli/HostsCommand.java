package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.inventory.Inventory;
import io.tunelab.matrix.Matrix;
import io.tunelab.run.HostCheck;
import io.tunelab.run.SshConnector;
import io.tunelab.view.NoiseText;
import io.tunelab.view.PrettyJson;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tunelab hosts check [--hosts FILE] [--benchmark] [MATRIX]}: one row per host and check;
 * {@code hosts facts} is {@link HostFactsCommand}.
 */
@Command(
    name = "hosts",
    mixinStandardHelpOptions = true,
    description = "Inspect the hosts of an inventory.",
    subcommands = {HostsCommand.Check.class, HostFactsCommand.class})
final class HostsCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The {@code check} subcommand. */
  @Command(
      name = "check",
      mixinStandardHelpOptions = true,
      description =
          "Connect to every host, check root (or sudo), the agent and the facts; given a matrix,"
              + " check that every knob exists and accepts every value (runs its setup and"
              + " teardown, writes no knob). Exit 3 when anything fails. With --benchmark, the"
              + " noise checks instead: each ok or warn, with the command that fixes it.")
  static final class Check implements Callable<Integer> {
    @Parameters(paramLabel = "MATRIX", arity = "0..1", description = "An experiment matrix.")
    Path matrix;

    @Mixin HostsOption hosts;

    @Mixin SetOption set;

    @Mixin FormatOption format;

    @Option(
        names = "--benchmark",
        description =
            "Check what makes a benchmark noisy (CPU governor and boost, swap, THP, KSM,"
                + " irqbalance, other tuners, load, dirty pages, RAID resync) instead; writes"
                + " nothing.")
    boolean benchmark;

    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      boolean json = format.json();
      if (matrix == null && !set.overrides().isEmpty()) {
        throw new TunelabException(
            TunelabException.BAD_INPUT, "--set overrides a matrix: give the MATRIX to check");
      }
      Matrix m = matrix == null ? null : MatrixFiles.load(matrix, set.overrides());
      Inventory inventory =
          m == null
              ? (hosts.file == null ? Inventory.empty() : Inventories.read(hosts.file))
              : Inventories.forMatrix(hosts, m);
      List<String> names = new ArrayList<>();
      if (m != null) {
        Inventories.requireRoles(m, inventory);
        m.roles().values().stream().distinct().forEach(names::add);
      } else {
        names.add(Inventory.LOCAL);
        names.addAll(inventory.names());
      }
      PrintWriter out = spec.commandLine().getOut();
      if (benchmark) {
        try (SshConnector connector = new SshConnector(inventory)) {
          out.print(
              NoiseText.of(
                  HostCheck.noise(connector, names).stream()
                      .map(
                          c ->
                              new NoiseText.Check(c.host(), c.check(), c.ok(), c.detail(), c.fix()))
                      .toList(),
                  json));
        }
        out.flush();
        return 0;
      }
      List<HostCheck.Row> rows;
      try (SshConnector connector = new SshConnector(inventory)) {
        rows = HostCheck.run(connector, names, m);
      }
      if (json) {
        List<Map<String, Object>> doc = new ArrayList<>();
        for (HostCheck.Row r : rows) {
          Map<String, Object> row = new LinkedHashMap<>();
          row.put("host", r.host());
          row.put("check", r.check());
          row.put("ok", r.ok());
          row.put("detail", r.detail());
          doc.add(row);
        }
        out.print(PrettyJson.write(doc));
      } else {
        table(out, rows);
      }
      out.flush();
      if (rows.stream().anyMatch(r -> !r.ok())) {
        throw new TunelabException(
            TunelabException.HOST_REFUSED, "hosts check: some checks failed");
      }
      return 0;
    }

    private static void table(PrintWriter out, List<HostCheck.Row> rows) {
      int width = rows.stream().mapToInt(r -> r.host().length()).max().orElse(4);
      out.printf("%-" + width + "s  %-8s %-4s %s%n", "HOST", "CHECK", "OK", "DETAIL");
      for (HostCheck.Row r : rows) {
        out.printf(
            "%-" + width + "s  %-8s %-4s %s%n",
            r.host(),
            r.check(),
            r.ok() ? "ok" : "FAIL",
            r.detail().replace('\n', ' '));
      }
    }
  }
}
