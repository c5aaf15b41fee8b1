package io.tunelab.cli;

import io.tunelab.report.TableFormat;
import io.tunelab.store.Boot;
import io.tunelab.store.ExperimentQueue;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ExperimentSummary;
import io.tunelab.store.ResultReader;
import io.tunelab.view.QueueText;
import io.tunelab.view.StatusJson;
import io.tunelab.view.StatusText;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code tunelab status}: the experiments in the database and how far each got; for one that is
 * running, its ETA, current trial and last event.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description =
        "List the experiments in the database with their trial counts; for a running one, its"
            + " progress, ETA, current trial and last event.")
final class StatusCommand implements Callable<Integer> {
  private static final String SQL =
      "SELECT e.id, e.name, e.status, e.started_at, e.finished_at,"
          + " SUM(CASE WHEN t.status = 'ok' THEN 1 ELSE 0 END) AS ok,"
          + " SUM(CASE WHEN t.status = 'failed' THEN 1 ELSE 0 END) AS failed,"
          + " SUM(CASE WHEN t.status IN ('pending', 'running') THEN 1 ELSE 0 END) AS unfinished"
          + " FROM experiments e LEFT JOIN cells c ON c.experiment_id = e.id"
          + " LEFT JOIN trials t ON t.cell_id = c.id GROUP BY e.id ORDER BY e.id";

  @Mixin DatabaseOption db;

  @Mixin FormatOption format;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    boolean json = format.json();
    PrintWriter out = spec.commandLine().getOut();
    try (ResultReader store = Databases.openReader(db)) {
      Instant now = Instant.now();
      if (json) {
        Map<Long, StatusJson.Live> live = new LinkedHashMap<>();
        for (ExperimentSummary e : store.experiments()) {
          if (e.status() == ExperimentStatus.RUNNING) {
            List<Boot> booting =
                store.boots(e.id()).stream().filter(b -> b.state() == Boot.State.BOOTING).toList();
            store
                .progress(e.id())
                .ifPresent(p -> live.put(e.id(), new StatusJson.Live(p, booting)));
          }
        }
        out.print(StatusJson.render(store.query(SQL), live, now));
        return 0;
      }
      out.print(TableFormat.render(store.query(SQL), "table"));
      if (db.isUrl()) {
        try (ExperimentQueue q = Databases.queue(db)) {
          out.print(QueueText.render(q.entries(null), q.workers()));
        }
      }
      // Another process's run: WAL lets this read in beside its writes.
      for (ExperimentSummary e : store.experiments()) {
        if (e.status() == ExperimentStatus.RUNNING) {
          store.progress(e.id()).ifPresent(p -> out.print("\n" + StatusText.render(p, now)));
          for (Boot b : store.boots(e.id())) {
            if (b.state() == Boot.State.BOOTING) {
              out.printf(
                  "%s: booting %s since %s (%s)%n",
                  b.host(),
                  b.release(),
                  LocalTime.ofInstant(b.startedAt(), ZoneId.systemDefault())
                      .truncatedTo(ChronoUnit.SECONDS),
                  b.method());
            }
          }
        }
      }
    }
    return 0;
  }
}
