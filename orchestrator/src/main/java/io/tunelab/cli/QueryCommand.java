package io.tunelab.cli;

import io.tunelab.report.TableFormat;
import io.tunelab.store.SqliteResultStore;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tunelab query SQL}: one statement on a read-only connection. */
@Command(
    name = "query",
    mixinStandardHelpOptions = true,
    description = "Run one SQL statement on a read-only connection to the database.")
final class QueryCommand implements Callable<Integer> {
  @Parameters(paramLabel = "SQL", description = "The statement, e.g. \"select * from cell_stats\".")
  String sql;

  @Option(
      names = "--format",
      defaultValue = "table",
      description = "table (default), csv or json.",
      completionCandidates = Formats.class)
  String format;

  @Mixin DatabaseOption db;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine()
        .getOut()
        .print(TableFormat.render(SqliteResultStore.query(db.path(), sql), format));
    return 0;
  }

  /** The output formats. */
  static final class Formats extends java.util.ArrayList<String> {
    Formats() {
      super(java.util.List.of("table", "csv", "json"));
    }
  }
}
