package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.matrix.Search;
import io.tunelab.report.ClassicReport;
import io.tunelab.report.HtmlReport;
import io.tunelab.report.Report;
import io.tunelab.report.ReportFormat;
import io.tunelab.report.SearchSection;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportSelection;
import io.tunelab.store.ResultReader;
import io.tunelab.store.StoredExperiment;
import io.tunelab.store.TrialCounts;
import io.tunelab.workload.Sample;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tunelab report [EXPERIMENT]}: the classic per-case table of times, MiB/s, std and IOPS, or
 * any axes as rows and columns, as text, Markdown, CSV, JSON or an HTML page of charts.
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description = {
      "Print an experiment's results (the latest by default): by default the classic read-ahead"
          + " tables, one block per case, one row per value of the last axis, with each"
          + " repetition's seconds, mean MiB/s, std MiB/s (population) and IOPS.",
      "A search's report begins with its answer: the winner and its confirmation against"
          + " default, the best mean so far against the trials spent, the candidates eliminated"
          + " and why, and which axes mattered (text, md and --html).",
      "Exits 1 after printing when the experiment has trials that have not run."
    })
final class ReportCommand implements Callable<Integer> {
  @Mixin ExperimentArgument experiment;

  @Option(
      names = "--rows",
      split = ",",
      paramLabel = "AXIS",
      description = "Axes whose values make the rows (comma-separated); the others make blocks.")
  List<String> rows = new ArrayList<>();

  @Option(
      names = "--cols",
      paramLabel = "AXIS",
      description = "An axis whose values become columns: a table of means with their spread.")
  String cols;

  @Option(
      names = "--metric",
      paramLabel = "METRIC,…",
      description =
          "Show this metric per repetition with its mean and std (seconds, mib_per_s, iops, us …)"
              + " instead of the classic columns; several: their means side by side.")
  String metric;

  @Option(
      names = "--job",
      paramLabel = "JOB,…",
      description =
          "The job to report (default: all, the aggregate of concurrent jobs): writer, writer.0,"
              + " vmstat@client, iostat@server:sdb …; several: each job's metrics side by side"
              + " (default seconds and mib_per_s).")
  String job;

  @Option(
      names = "--format",
      defaultValue = "text",
      paramLabel = "FORMAT",
      completionCandidates = FormatCandidates.Report.class,
      description = "text (default, fixed width for e-mail), md, csv or json.")
  String format;

  @Option(
      names = "--html",
      paramLabel = "FILE",
      description = "Write one self-contained HTML page with charts and the tables to FILE.")
  Path html;

  @Option(
      names = "--group",
      paramLabel = "AXIS",
      description = "With --html: the axis whose values cluster the bars (default: the last axis).")
  String group;

  @Mixin DatabaseOption db;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    ReportFormat chosen = ReportFormat.named(format);
    if (group != null && html == null) {
      throw new TunelabException(TunelabException.BAD_INPUT, "--group only applies with --html");
    }
    ReportSelection selection = ReportSelection.parse(job, metric);
    if (html != null && selection.sideBySide()) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "--html charts one job and one metric; several side by side print as text, md, csv or"
              + " json");
    }
    Report report;
    PrintWriter err = spec.commandLine().getErr();
    try (ResultReader store = Databases.openReader(db)) {
      StoredExperiment found = experiment.find(store);
      List<ReportData> data = store.reports(found.id(), selection);
      report = Report.build(data, new Report.Options(rows, cols, null));
      SearchSection section =
          chosen == ReportFormat.CSV || chosen == ReportFormat.JSON
              ? null
              : search(store, found, err);
      if (section != null) {
        report = report.withSearch(section);
      }
    }
    if (html != null) {
      write(html, HtmlReport.render(report, group));
      err.println("tunelab: wrote " + html);
    } else {
      spec.commandLine().getOut().print(chosen.render(report));
    }
    return unfinished(report.data(), err);
  }

  /**
   * The search section of a search experiment, its objective read from the stored matrix; null for
   * a grid, or with a note on standard error when the stored matrix no longer loads.
   */
  private static SearchSection search(ResultReader store, StoredExperiment found, PrintWriter err) {
    // A matrix without the word has no search: the common case skips loading it again.
    if (found.matrixYaml() == null || !found.matrixYaml().contains("search")) {
      return null;
    }
    Search search;
    try {
      search = StoredSteps.matrix(store, found).search();
    } catch (TunelabException e) {
      err.println("tunelab: no search section: the stored matrix does not load: " + e.getMessage());
      return null;
    }
    if (search == null) {
      return null;
    }
    String job = search.job().equals(Sample.AGGREGATE_JOB) ? null : search.job();
    ReportData objective;
    try {
      objective = store.report(found.id(), ReportSelection.of(job, search.metric()));
    } catch (TunelabException e) {
      // Before the objective's first measurement there is nothing to say of the search.
      err.println("tunelab: no search section yet: " + e.getMessage());
      return null;
    }
    return SearchSection.of(
        search, objective, store.search(found.id(), search.job(), search.metric()));
  }

  /** Exit code 1, with a note on standard error, for an experiment with trials left to run. */
  static int unfinished(ReportData data, PrintWriter err) {
    return unfinished(data.experimentId(), data.name(), data.status(), data.counts(), "shown", err);
  }

  /**
   * Exit code 1, with a note on standard error, for an experiment with trials left to run; {@code
   * done} says what the command did with the rest ({@code shown}, {@code exported}).
   */
  static int unfinished(
      long id,
      String name,
      ExperimentStatus status,
      TrialCounts counts,
      String done,
      PrintWriter err) {
    if (counts.unfinished() == 0) {
      return 0;
    }
    err.println(
        "tunelab: experiment "
            + id
            + " ("
            + name
            + ") is "
            + status.text()
            + ": "
            + counts.unfinished()
            + " of "
            + counts.total()
            + " trials have not run; "
            + done
            + " what exists");
    return TunelabException.TRIALS_FAILED;
  }

  /** Writes a whole output file; a path that cannot be written is exit code 2. */
  static void write(Path file, String text) {
    try {
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new TunelabException(
          TunelabException.BAD_INPUT, "cannot write " + file + ": " + reason(e));
    }
  }

  static String reason(IOException e) {
    String name = e.getClass().getSimpleName();
    return switch (name) {
      case "NoSuchFileException" -> "no such directory";
      case "AccessDeniedException" -> "permission denied";
      case "FileSystemException" -> String.valueOf(e.getMessage());
      default -> e.getMessage() == null ? name : e.getMessage();
    };
  }

  /**
   * The classic report of one experiment, as {@code run} and {@code resume} print it at the end.
   */
  static String render(ResultReader store, long experimentId) {
    return ClassicReport.render(store.report(experimentId));
  }
}
