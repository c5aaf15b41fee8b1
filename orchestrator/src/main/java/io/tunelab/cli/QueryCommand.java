package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.report.TableFormat;
import io.tunelab.store.QueryAnswer;
import io.tunelab.store.QueryLimits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tunelab query SQL|-|--file FILE}: one read statement on a read-only connection. */
@Command(
    name = "query",
    mixinStandardHelpOptions = true,
    modelTransformer = QueryCommand.SqlMayStartWithAComment.class,
    description = {
      "Run one read statement (SELECT, WITH … SELECT, VALUES, EXPLAIN, a PRAGMA that reads) on a"
          + " read-only connection to the database; anything that would write is refused.",
      "The statement is the argument, standard input (-) or a file (--file); named parameters"
          + " (:name, $name, @name) take their values from --param."
    })
final class QueryCommand implements Callable<Integer> {
  private static final Pattern NAME = Pattern.compile("[:$@]?[A-Za-z_][A-Za-z0-9_]*");

  @Parameters(
      paramLabel = "SQL",
      arity = "0..1",
      description =
          "The statement, e.g. \"select * from cell_stats\"; - reads it from standard input.")
  String sql;

  @Option(
      names = "--file",
      paramLabel = "FILE",
      description = "Read the statement from FILE (- for standard input), e.g. db/queries/*.sql.")
  Path file;

  @Option(
      names = "--param",
      paramLabel = "NAME=VALUE",
      description =
          "Bind :NAME ($NAME, @NAME) to VALUE; repeatable. A decimal integer or fraction is bound"
              + " as a number, anything else as text.")
  List<String> params = new ArrayList<>();

  @Option(
      names = "--format",
      defaultValue = "table",
      description = "table (default), csv or json.",
      completionCandidates = Formats.class)
  String format;

  @Option(
      names = "--max-rows",
      paramLabel = "N",
      defaultValue = "10000",
      description =
          "Print at most N rows (default 10000, 0 for all); when the statement has more, the rest"
              + " is not read and standard error says so.")
  int maxRows;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "60s",
      converter = DurationText.class,
      description =
          "Interrupt the statement when it still runs after DURATION (default 60s, e.g. 10m):"
              + " exit code 2.")
  Duration timeout;

  @Mixin DatabaseOption db;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    String statement = statement();
    Map<String, String> values = values();
    if (maxRows < 0) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "--max-rows takes a number of rows, 0 for all; not " + maxRows);
    }
    QueryAnswer answer =
        Databases.query(
            db,
            statement,
            values,
            new QueryLimits(maxRows == 0 ? Integer.MAX_VALUE : maxRows, timeout));
    spec.commandLine().getOut().print(TableFormat.render(answer.table(), format));
    if (answer.cut()) {
      spec.commandLine().getOut().flush();
      spec.commandLine()
          .getErr()
          .println(
              "tunelab query: stopped after "
                  + maxRows
                  + " rows (--max-rows): the statement has more; give a larger --max-rows,"
                  + " or 0 for all");
    }
    return 0;
  }

  private String statement() {
    if (file != null && sql != null) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "give the statement either as an argument or with --file, not both");
    }
    if (file == null && sql == null) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "give the statement as an argument, with --file FILE, or as - to read standard input");
    }
    if (file != null) {
      return file.toString().equals("-") ? standardInput() : read(file);
    }
    if (sql.equals("-")) {
      return standardInput();
    }
    if (sql.startsWith("-") && sql.chars().noneMatch(Character::isWhitespace)) {
      // The statement may start with a comment, so an unknown option arrives here as the SQL.
      throw new TunelabException(TunelabException.BAD_INPUT, "Unknown option: '" + sql + "'");
    }
    return sql;
  }

  private Map<String, String> values() {
    Map<String, String> values = new LinkedHashMap<>();
    for (String p : params) {
      int eq = p.indexOf('=');
      String name = eq < 0 ? p : p.substring(0, eq);
      if (eq < 0 || !NAME.matcher(name).matches()) {
        throw new TunelabException(
            TunelabException.BAD_INPUT,
            "--param takes NAME=VALUE (NAME: letters, digits and _), e.g. --param experiment=3;"
                + " not '"
                + p
                + "'");
      }
      String bare = name.replaceFirst("^[:$@]", "");
      if (values.put(bare, p.substring(eq + 1)) != null) {
        throw new TunelabException(
            TunelabException.BAD_INPUT, "--param " + bare + " is given twice");
      }
    }
    return values;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          file
              + ": cannot read the statement: "
              + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()));
    }
  }

  private static String standardInput() {
    try {
      return new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new TunelabException(
          TunelabException.BAD_INPUT, "cannot read the statement from standard input: " + e);
    }
  }

  /**
   * Lets the SQL argument start with {@code --}, as the saved queries do: picocli would otherwise
   * take {@code "-- comment …"} for an unknown option.
   */
  static final class SqlMayStartWithAComment implements IModelTransformer {
    @Override
    public CommandSpec transform(CommandSpec spec) {
      spec.parser().unmatchedOptionsArePositionalParams(true);
      return spec;
    }
  }

  /** The output formats. */
  static final class Formats extends java.util.ArrayList<String> {
    Formats() {
      super(java.util.List.of("table", "csv", "json"));
    }
  }
}
