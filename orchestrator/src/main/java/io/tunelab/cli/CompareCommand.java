package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.report.Comparison;
import io.tunelab.report.HtmlComparison;
import io.tunelab.report.ReportFormat;
import io.tunelab.store.ExperimentFinder;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportSelection;
import io.tunelab.store.ResultReader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tunelab compare A B}: two experiments (the same matrix on two kernels) or, with {@code
 * --axis}, two values of one axis, row by row with %change, its interval and a test.
 */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description = {
      "Compare two experiments cell by cell (cells matched by their parameters), or with --axis"
          + " two values of one axis within one experiment (the latest by default).",
      "Per row: base mean ±stddev%%, %%change and its 95%% confidence interval, new mean"
          + " ±stddev%%, * when the test (--test; n >= 3 on both sides) finds a difference at"
          + " --alpha, ~ otherwise, the verdict, then p, n"
          + " and the row's parameters; a TOTAL and a geomean row follow. The verdict is better"
          + " or worse (changed for a metric whose direction is unknown) when the row has * and"
          + " |%%change| >= --min-change, same otherwise, n<3 when a side has too few repetitions"
          + " to test. A pair without an ok trial on one side shows a dash and is left out of"
          + " TOTAL and geomean.",
      "The header names both sides and what else differs between them, one line each: kernels,"
          + " knob values (read_ahead_kb 128 → 256), host facts, and each host's kernel command"
          + " lines where they differ.",
      "A row whose sides each ran on two boots or more (a kernel axis with boots: N) takes the"
          + " per-boot means as its unit: its interval and test come from them, and a block under"
          + " the table gives each side's between-boot and within-boot spread and whether more"
          + " boots or more repetitions would narrow the interval.",
      "Exits 1 after printing when an experiment has trials that have not run."
    })
final class CompareCommand implements Callable<Integer> {
  /** The values of {@code --test} that shell completion offers. */
  static final class TestCandidates extends ArrayList<String> {
    TestCandidates() {
      for (Comparison.Test t : Comparison.Test.values()) {
        add(t.text());
      }
    }
  }

  @Parameters(
      paramLabel = "EXPERIMENT",
      arity = "0..2",
      description = "Base and new experiment (id or name); with --axis one (default: the latest).")
  List<String> experiments = new ArrayList<>();

  @Option(
      names = "--axis",
      paramLabel = "NAME=BASE,NEW",
      description =
          "Compare two values of one axis within one experiment, e.g."
              + " --axis scheduler=none,mq-deadline or --axis"
              + " server.kernel=6.1.0-47-amd64,6.1.0-50-amd64; NAME as in the matrix, as reports"
              + " show it, or as the cell labels spell it; cells pair up on every other axis.")
  String axis;

  @Option(
      names = "--metric",
      paramLabel = "METRIC",
      description = "The metric to compare (default: mib_per_s when recorded, else seconds).")
  String metric;

  @Option(
      names = "--job",
      paramLabel = "JOB",
      description =
          "The job to compare (default: all, the aggregate of concurrent jobs): writer, writer.0,"
              + " vmstat@client, iostat@server:sdb …")
  String job;

  @Option(
      names = "--min-change",
      paramLabel = "PERCENT",
      description =
          "The smallest significant change the verdict calls better or worse; smaller ones are"
              + " same (default: 2, i.e. 2%%).")
  String minChange;

  // Another name of --min-change, left out of the help.
  @Option(names = "--threshold", paramLabel = "PERCENT", hidden = true)
  String threshold;

  @Option(
      names = "--alpha",
      paramLabel = "ALPHA",
      defaultValue = "0.05",
      description = "Significance level of the two-sided test (default: 0.05).")
  double alpha;

  @Option(
      names = "--test",
      paramLabel = "TEST",
      defaultValue = "welch",
      completionCandidates = TestCandidates.class,
      description =
          "welch (default): Welch's t-test of the means, paired by round when both sides ran in"
              + " the rounds of one experiment; mann-whitney: the Mann-Whitney U test of the"
              + " ranks, for skewed noise.")
  String test;

  @Option(
      names = "--format",
      defaultValue = "text",
      paramLabel = "FORMAT",
      completionCandidates = FormatCandidates.Report.class,
      description = "text (default), md, csv or json.")
  String format;

  @Option(
      names = "--html",
      paramLabel = "FILE",
      description = "Write the comparison as one self-contained HTML page to FILE.")
  Path html;

  @Mixin DatabaseOption db;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    ReportFormat chosen = ReportFormat.named(format);
    ReportSelection selection = ReportSelection.parse(job, metric);
    if (selection.sideBySide()) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "compare takes one job and one metric; compare each in turn (--job writer, then --job"
              + " reader), or show them side by side with report --job or --metric");
    }
    if (minChange != null && threshold != null) {
      throw new TunelabException(
          TunelabException.BAD_INPUT, "--threshold is another name of --min-change: give one");
    }
    String given = minChange != null ? minChange : threshold;
    Comparison.Options options =
        new Comparison.Options(
            alpha,
            given == null ? Comparison.Options.MIN_CHANGE : percent(given),
            0.95,
            Comparison.Test.named(test));
    Comparison comparison;
    List<ReportData> sides = new ArrayList<>();
    try (ResultReader store = Databases.openReader(db)) {
      if (axis == null) {
        if (experiments.size() != 2) {
          throw new TunelabException(
              TunelabException.BAD_INPUT,
              "compare needs two experiments (compare A B), or --axis NAME=BASE,NEW");
        }
        ReportData base = load(store, experiments.get(0), selection);
        String m = chosenMetric(base);
        ReportData next = load(store, experiments.get(1), ReportSelection.of(base.job(), m));
        sides.add(base);
        sides.add(next);
        comparison =
            Comparison.experiments(
                base,
                store.conditions(base.experimentId()),
                next,
                store.conditions(next.experimentId()),
                m,
                options);
      } else {
        if (experiments.size() > 1) {
          throw new TunelabException(
              TunelabException.BAD_INPUT, "with --axis, compare takes one experiment, not two");
        }
        String name = experiments.isEmpty() ? null : experiments.get(0);
        ReportData data = load(store, name, selection);
        sides.add(data);
        comparison =
            Comparison.axis(
                data, store.conditions(data.experimentId()), axis, chosenMetric(data), options);
      }
    }
    PrintWriter err = spec.commandLine().getErr();
    if (html != null) {
      ReportCommand.write(html, HtmlComparison.render(comparison));
      err.println("tunelab: wrote " + html);
    } else {
      spec.commandLine().getOut().print(chosen.render(comparison));
    }
    int code = 0;
    for (ReportData d : sides) {
      code = Math.max(code, ReportCommand.unfinished(d, err));
    }
    return code;
  }

  private static ReportData load(ResultReader store, String experiment, ReportSelection s) {
    return store.report(ExperimentFinder.find(store, experiment).id(), s);
  }

  private String chosenMetric(ReportData base) {
    String m = metric != null ? metric : base.mainMetric();
    if (m == null) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "experiment " + base.experimentId() + " (" + base.name() + ") has nothing measured yet");
    }
    return m;
  }

  /** {@code 1}, {@code 1%} or {@code 0.5%} as a number of percent. */
  static double percent(String text) {
    String t = text.strip();
    if (t.endsWith("%")) {
      t = t.substring(0, t.length() - 1).strip();
    }
    try {
      return Double.parseDouble(t);
    } catch (NumberFormatException e) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          String.format(
              Locale.ROOT, "--min-change takes a percentage such as 2 or 0.5%%, not '%s'", text));
    }
  }
}
