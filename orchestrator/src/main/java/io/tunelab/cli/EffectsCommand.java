package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.report.CandidateEffects;
import io.tunelab.search.Effects;
import io.tunelab.search.EffectsText;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportSelection;
import io.tunelab.store.ResultReader;
import io.tunelab.view.EffectsJson;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tunelab effects [EXPERIMENT]}: which axes mattered, ranked, with each level's mean. */
@Command(
    name = "effects",
    mixinStandardHelpOptions = true,
    description = {
      "Print which axes of an experiment (the latest by default) mattered for a metric: for each"
          + " axis an analysis of variance over its levels (the share of the variance it explains,"
          + " eta², F and p), ranked, then each level's mean with its 95%% confidence interval.",
      "Then each pair of axes' interaction: what their combined levels explain beyond the two"
          + " axes alone (eta², F and p), ranked.",
      "Works on any experiment with two levels or more on an axis: a grid, or a search's"
          + " candidates (the confirmation's default cell is left out)."
    })
final class EffectsCommand implements Callable<Integer> {
  @Mixin ExperimentArgument experiment;

  @Option(
      names = "--metric",
      paramLabel = "METRIC",
      description = "The metric (default mib_per_s where recorded, else seconds).")
  String metric;

  @Option(
      names = "--job",
      paramLabel = "JOB",
      description = "The job whose metric it is (default: all, the aggregate).")
  String job;

  @Option(
      names = "--format",
      defaultValue = "text",
      paramLabel = "FORMAT",
      description = "text (default), md or json.")
  String format;

  @Mixin DatabaseOption db;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (!List.of("text", "md", "json").contains(format)) {
      throw new TunelabException(
          TunelabException.BAD_INPUT, "--format " + format + ": effects prints text, md or json");
    }
    ReportData data;
    try (ResultReader store = Databases.openReader(db)) {
      long id = experiment.find(store).id();
      String chosen = metric != null ? metric : defaultMetric(store, id);
      data = store.report(id, ReportSelection.parse(job, chosen));
      metric = chosen;
    }
    Effects effects = CandidateEffects.of(data, metric);
    PrintWriter out = spec.commandLine().getOut();
    if (format.equals("json")) {
      out.println(EffectsJson.render(effects, data.experimentId(), data.name(), data.job()));
      return ReportCommand.unfinished(data, spec.commandLine().getErr());
    }
    out.print(
        EffectsText.render(
            effects,
            String.format(
                "effects on %s%s, experiment %d (%s): %d values",
                data.job() == null || data.job().equals("all") ? "" : data.job() + ".",
                metric,
                data.experimentId(),
                data.name(),
                effects.n()),
            format.equals("md")));
    return ReportCommand.unfinished(data, spec.commandLine().getErr());
  }

  private static String defaultMetric(ResultReader store, long id) {
    ReportData probe = store.report(id, ReportSelection.parse(null, "mib_per_s"));
    boolean measured = probe.cells().stream().anyMatch(c -> c.values("mib_per_s").length > 0);
    return measured ? "mib_per_s" : "seconds";
  }
}
