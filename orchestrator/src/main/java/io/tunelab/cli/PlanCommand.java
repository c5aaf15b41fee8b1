package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.matrix.Axis;
import io.tunelab.matrix.Kernels;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.RepeatRule;
import io.tunelab.matrix.Search;
import io.tunelab.plan.BootPlan;
import io.tunelab.plan.Cell;
import io.tunelab.plan.CellStepValues;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.plan.PlanBuilder;
import io.tunelab.plan.Transitions;
import io.tunelab.plan.Trial;
import io.tunelab.search.Race;
import io.tunelab.search.Screen;
import io.tunelab.search.Space;
import io.tunelab.view.PlanJson;
import io.tunelab.view.WorkloadText;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.ToLongFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tunelab plan MATRIX}: the cells, trial count and settings per cell; touches nothing. */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    description =
        "Show the cells, trial count and settings of a matrix; touches no host and no database."
            + " Checks that every role's host is local or in the inventory (--hosts, else the"
            + " matrix's hosts:), without connecting.")
final class PlanCommand implements Callable<Integer> {
  @Parameters(paramLabel = "MATRIX", description = "The experiment matrix (YAML).")
  Path matrix;

  @Option(
      names = "--summary",
      description =
          "Print only the counts, not every cell, and not the transitions table unless"
              + " --transitions asks for it.")
  boolean summary;

  @Option(
      names = "--transitions",
      description =
          "With --summary: also what each order costs in transitions (it orders the plan's"
              + " trials three ways; the plan without --summary always shows it).")
  boolean transitions;

  @Option(
      names = "--workload",
      description =
          "Under each cell, every process its trials start: role, name and command line as"
              + " resolved (dd's count, fio's options, each ${proc}); what setup captures stays"
              + " ${name}.")
  boolean workload;

  @Mixin HostsOption hosts;

  @Mixin SetOption set;

  @Mixin FormatOption format;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    boolean json = format.json();
    Matrix m = MatrixFiles.load(matrix, set.overrides());
    RolesInInventory.check(m, hosts);
    int cells = ExperimentPlan.checkedCount(m);
    List<Trial> trials = PlanBuilder.build(cells, m.repeat(), m.warmup(), m.order(), m.seed());
    PrintWriter out = spec.commandLine().getOut();
    boolean table = !summary || transitions;
    if (json) {
      List<Cell> all = summary && !table ? List.of() : ExperimentPlan.cells(m).toList();
      out.print(
          PlanJson.render(
              m,
              cells,
              trials.size(),
              hostBoots(m),
              table ? transitions(m, all, BootPlan.of(m)) : null,
              summary ? null : inRunOrder(m, all)));
      return 0;
    }
    if (m.search() != null) {
      printSearch(out, m, cells);
      return 0;
    }
    RepeatRule rule = m.repeatRule();
    String order = m.order().text();
    if (rule.adaptive()) {
      out.printf(
          "%s: %d cells x %d to %d repetitions (+%d warm-up) = %d to %d trials, order %s, seed"
              + " %d%n",
          m.name(),
          cells,
          rule.min(),
          rule.max(),
          m.warmup(),
          (long) cells * (rule.min() + m.warmup()),
          trials.size(),
          order,
          m.seed());
      String metric =
          rule.metric() != null ? rule.metric() : "mib_per_s (seconds where not recorded)";
      if (rule.compares()) {
        out.printf(
            "repeat: %d to %d measured trials per cell, as many as the first %d of every cell of a"
                + " group (cells sharing every other axis) ask for to bring the 95%% CI of each"
                + " ratio over %s (value / first value) of %s within ±%s%s%n",
            rule.min(),
            rule.max(),
            rule.min(),
            rule.compare(),
            metric,
            RepeatRule.percent(rule.target()),
            m.boots() > 1
                ? "; with boots: "
                    + m.boots()
                    + " boots are the unit: the pilot is the boots the first "
                    + rule.min()
                    + " fall in (2 at least), and a group skips the boots after the count they"
                    + " ask for"
                : "");
      } else {
        out.printf(
            "repeat: %d to %d measured trials per cell, as many as its first %d ask for to bring"
                + " the 95%% confidence half-width of %s within %s of the mean%n",
            rule.min(), rule.max(), rule.min(), metric, RepeatRule.percent(rule.target()));
      }
    } else {
      out.printf(
          "%s: %d cells x %d repetitions (+%d warm-up) = %d trials, order %s, seed %d%n",
          m.name(), cells, m.repeat(), m.warmup(), trials.size(), order, m.seed());
    }
    if (!m.overrides().isEmpty()) {
      out.println("set: " + SetOption.text(m.overrides()));
    }
    BootPlan boots = BootPlan.of(m);
    for (PlanJson.HostBoots b : hostBoots(m)) {
      out.printf(
          "boots: host %s: %d%s%n",
          b.host(),
          b.boots(),
          b.otherwise() == null
              ? ""
              : " if it runs "
                  + b.start()
                  + " when the run starts, "
                  + b.otherwise()
                  + " otherwise");
    }
    if (boots.boots() > 1) {
      printBootOrder(out, m, boots);
    }
    if (!table) {
      return 0;
    }
    List<Cell> all = ExperimentPlan.cells(m).toList();
    printTransitions(out, m, all, boots);
    if (!summary) {
      StringBuilder line = new StringBuilder();
      Set<String> captured = workload ? ExperimentPlan.capturedNames(m) : Set.of();
      if (m.order() == Matrix.Order.FEWEST_CHANGES) {
        out.println("cells in the order they first run:");
      }
      inRunOrder(m, all)
          .forEach(
              cell -> {
                line.setLength(0);
                line.append(String.format("%6d  %s", cell.ordinal(), cell.label()));
                cell.knobs()
                    .forEach(
                        (k, v) -> line.append("\n          ").append(k).append(" = ").append(v));
                if (workload) {
                  WorkloadText.append(line, m.workload(), cell, captured);
                }
                out.println(line);
              });
    }
    return 0;
  }

  /**
   * The boots each host needs, counted from the release the plan asks first (the host should run it
   * already), and from another one.
   */
  private static List<PlanJson.HostBoots> hostBoots(Matrix m) {
    BootPlan boots = BootPlan.of(m);
    List<PlanJson.HostBoots> list = new ArrayList<>();
    if (boots.none()) {
      return list;
    }
    ExperimentPlan plan = ExperimentPlan.of(m);
    Trial first = plan.trials().get(0);
    for (String host : boots.hosts()) {
      String start =
          boots.wants(plan.cells().get(first.cellOrdinal() - 1), first.rep()).get(host).release();
      int n = boots.bootsNeeded(host, plan.trials(), plan.cells(), start);
      Integer elsewhere =
          start.equals(Kernels.DEFAULT)
              ? null
              : boots.bootsNeeded(host, plan.trials(), plan.cells(), "(another)");
      list.add(new PlanJson.HostBoots(host, start, n, elsewhere));
    }
    return list;
  }

  /** Each booted host's boots in run order: release and which of its boots, e.g. A#1 B#1 B#2. */
  private static void printBootOrder(PrintWriter out, Matrix m, BootPlan boots) {
    ExperimentPlan plan = ExperimentPlan.of(m);
    for (String host : boots.hosts()) {
      StringBuilder line = new StringBuilder();
      BootPlan.Want last = null;
      for (Trial t : plan.trials()) {
        BootPlan.Want w = boots.wants(plan.cells().get(t.cellOrdinal() - 1), t.rep()).get(host);
        if (!w.equals(last)) {
          line.append(' ').append(w.release()).append('#').append(w.round());
          last = w;
        }
      }
      out.printf("boots of host %s in run order (%s):%s%n", host, m.bootOrder().text(), line);
      if (boots.like(host)) {
        out.printf(
            "  like boots: the start release is booted into too, so no trial runs on the boot the"
                + " experiment starts on (boots: {like: false} runs its first trials there)%n");
      }
    }
  }

  /**
   * A search's space, budget and what a grid of it costs; then a race's first round, or a screen's
   * design and its cells.
   */
  private void printSearch(PrintWriter out, Matrix m, int cells) {
    Search search = m.search();
    List<Cell> all = ExperimentPlan.cells(m).toList();
    Space space = Space.of(m.axes(), all);
    Screen screen = null;
    if (search.method() == Search.Method.SCREEN) {
      try {
        screen = Screen.of(search, m.axes(), space, m.seed());
      } catch (IllegalArgumentException e) {
        throw new TunelabException(TunelabException.BAD_INPUT, "search.method: " + e.getMessage());
      }
    }
    out.printf(
        "%s: a %s for %s over %d cells, seed %d:%s at most %d trials (%d for the %s, 2 x %d to"
            + " confirm %s against default); the grid of this space runs %d trials a repetition%n",
        m.name(),
        screen == null ? "race" : "screen",
        search.objective(),
        cells,
        m.seed(),
        screen == null ? "" : " " + screen.description() + ";",
        search.budget(),
        search.raceBudget(),
        screen == null ? "race" : "screen",
        search.confirm(),
        screen == null ? "the winner" : "its best cell",
        cells);
    if (!m.overrides().isEmpty()) {
      out.println("set: " + SetOption.text(m.overrides()));
    }
    if (summary) {
      return;
    }
    List<Integer> listed;
    if (screen == null) {
      listed =
          BootPlan.of(m)
              .blocks(
                  new Race(space, m.seed(), search.maximize(), search.raceBudget())
                      .next(List.of())
                      .cells(),
                  all,
                  1);
      out.printf("first round, in run order (%d candidates):%n", listed.size());
    } else {
      out.println("levels, low and high:");
      for (int a = 0; a < m.axes().size(); a++) {
        Axis axis = m.axes().get(a);
        List<Integer> two = screen.levels().get(a);
        if (axis.values().size() >= 2) {
          out.printf(
              "  %s: %s, %s%s%n",
              axis.name(),
              axis.values().get(two.get(0)),
              axis.values().get(two.get(1)),
              search.levels().containsKey(axis.name())
                  ? " (search.levels)"
                  : " (first and last value)");
        }
      }
      listed = screen.design();
      out.printf("the design's cells (%d), each once a replicate:%n", listed.size());
    }
    listed.forEach(c -> out.printf("  %4d  %s%n", c, all.get(c - 1).label()));
  }

  /** What the transitions between trials cost in each order. */
  private static Map<Matrix.Order, Transitions> transitions(
      Matrix m, List<Cell> cells, BootPlan boots) {
    CellStepValues steps = CellStepValues.of(m);
    Map<Matrix.Order, Transitions> counts = new LinkedHashMap<>();
    for (Matrix.Order o :
        List.of(Matrix.Order.SEQUENTIAL, Matrix.Order.SHUFFLE, Matrix.Order.FEWEST_CHANGES)) {
      counts.put(o, Transitions.of(cells, ExperimentPlan.trials(m, cells, o), steps, boots));
    }
    return counts;
  }

  /** The cells as listed: in ordinal order, for fewest-changes in the order they first run. */
  private static List<Cell> inRunOrder(Matrix m, List<Cell> cells) {
    if (m.order() != Matrix.Order.FEWEST_CHANGES) {
      return cells;
    }
    Set<Integer> seen = new LinkedHashSet<>();
    ExperimentPlan.trials(m, cells, m.order()).forEach(t -> seen.add(t.cellOrdinal()));
    return seen.stream().map(o -> cells.get(o - 1)).toList();
  }

  /** What the transitions between trials cost in each order, side by side. */
  private static void printTransitions(
      PrintWriter out, Matrix m, List<Cell> cells, BootPlan boots) {
    Map<Matrix.Order, Transitions> byOrder = transitions(m, cells, boots);
    List<Transitions> counts = new ArrayList<>(byOrder.values());
    StringBuilder header = new StringBuilder(String.format("%-24s", "transitions"));
    byOrder.keySet().forEach(o -> header.append(String.format("%16s", o.text())));
    out.println(header);
    printRow(out, "cell steps run", counts, Transitions::cellSetups);
    printRow(out, "knob writes", counts, Transitions::knobWrites);
    printRow(out, "  queue-freezing", counts, Transitions::freezingWrites);
    printRow(out, "kernels booted", counts, Transitions::boots);
  }

  private static void printRow(
      PrintWriter out, String name, List<Transitions> counts, ToLongFunction<Transitions> count) {
    StringBuilder row = new StringBuilder(String.format("  %-22s", name));
    counts.forEach(c -> row.append(String.format("%16d", count.applyAsLong(c))));
    out.println(row);
  }
}
