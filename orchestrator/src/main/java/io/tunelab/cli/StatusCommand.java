package io.tunelab.cli;

import io.tunelab.report.TableFormat;
import io.tunelab.store.ResultTable;
import io.tunelab.store.SqliteResultStore;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tunelab status}: the experiments in the database and how far each got. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = "List the experiments in the database with their trial counts.")
final class StatusCommand implements Callable<Integer> {
  private static final String SQL =
      "SELECT e.id, e.name, e.status, e.started_at, e.finished_at,"
          + " SUM(t.status = 'ok') AS ok, SUM(t.status = 'failed') AS failed,"
          + " SUM(t.status IN ('pending', 'running')) AS unfinished"
          + " FROM experiments e LEFT JOIN cells c ON c.experiment_id = e.id"
          + " LEFT JOIN trials t ON t.cell_id = c.id GROUP BY e.id ORDER BY e.id";

  @Mixin DatabaseOption db;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    ResultTable table = SqliteResultStore.query(db.path(), SQL);
    spec.commandLine().getOut().print(TableFormat.render(table, "table"));
    return 0;
  }
}
