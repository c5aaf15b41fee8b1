package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.report.ClassicReport;
import io.tunelab.store.ReportLoader;
import io.tunelab.store.ResultStore;
import io.tunelab.store.SqliteResultStore;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tunelab report [EXPERIMENT]}: the classic per-case table of times, MiB/s, std and IOPS. */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description = "Print an experiment's results as the classic read-ahead tables (latest by default).")
final class ReportCommand implements Callable<Integer> {
  @Parameters(
      paramLabel = "EXPERIMENT",
      arity = "0..1",
      description = "Experiment id or name (default: the latest).")
  String experiment;

  @Mixin DatabaseOption db;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    try (SqliteResultStore store = SqliteResultStore.openReadOnly(db.path())) {
      ResultStore.StoredExperiment found =
          (experiment == null ? store.latest() : store.findExperiment(experiment))
              .orElseThrow(
                  () ->
                      new TunelabException(
                          TunelabException.BAD_INPUT,
                          experiment == null
                              ? "no experiment in " + db.path()
                              : "no experiment '" + experiment + "' in " + db.path()));
      spec.commandLine().getOut().print(render(store, db.path(), found.id()));
    }
    return 0;
  }

  static String render(SqliteResultStore store, Path db, long experimentId) {
    return ClassicReport.render(ReportLoader.load(store, experimentId));
  }
}
