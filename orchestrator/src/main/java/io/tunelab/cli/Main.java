package io.tunelab.cli;

import io.tunelab.TunelabException;
import java.io.PrintWriter;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** The only place that exits: parses the command line, runs a command, maps errors to codes. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true);
    PrintWriter err = new PrintWriter(System.err, true);
    // Java 17's console exists only when standard input and output are both a terminal.
    boolean terminal = System.console() != null && !"dumb".equals(System.getenv("TERM"));
    System.exit(execute(args, out, err, terminal));
  }

  /** Runs tunelab with {@code args}; returns the exit code. */
  public static int execute(String[] args, PrintWriter out, PrintWriter err) {
    return execute(args, out, err, false);
  }

  /**
   * As {@link #execute(String[], PrintWriter, PrintWriter)}; {@code terminal} when {@code out} is a
   * terminal a person watches (a run then draws a progress bar instead of printing trial lines).
   */
  static int execute(String[] args, PrintWriter out, PrintWriter err, boolean terminal) {
    TunelabCommand top = new TunelabCommand();
    top.terminal = terminal;
    CommandLine cli = new CommandLine(top);
    cli.setOut(out);
    cli.setErr(err);
    cli.setExitCodeExceptionMapper(e -> TunelabException.BAD_INPUT);
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          boolean trace = top.stacktrace;
          if (e instanceof TunelabException t) {
            err.println(prefixed(t.getMessage()));
            if (trace) {
              t.printStackTrace(err);
            }
            return t.exitCode();
          }
          err.println("tunelab: internal error: " + e);
          if (trace) {
            e.printStackTrace(err);
          } else {
            err.println("(run again with --stacktrace for details)");
          }
          return TunelabException.INTERNAL;
        });
    int code = cli.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  /**
   * An error for editors and people: a message whose first line is located ({@code FILE:LINE:COL:
   * …}, as gcc and ruff print) starts with its location, so that Vim's quickfix and Emacs' compile
   * mode read every line alike; an unlocated one starts with {@code tunelab: }.
   */
  static String prefixed(String message) {
    return LOCATED.matcher(message).lookingAt() ? message : "tunelab: " + message;
  }

  private static final Pattern LOCATED = Pattern.compile("[^\\s:][^:\\n]*:\\d+:\\d+: ");
}
