package io.tunelab.testing;

import io.tunelab.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs tunelab in-process, as a user would from the shell, and keeps what it printed. */
public final class Cli {
  private Cli() {}

  /** The exit code and both output streams of one call. */
  public record Result(int code, String out, String err) {
    /** Standard output followed by standard error. */
    public String all() {
      return out + err;
    }
  }

  /** One call of {@code tunelab ARGS…}. */
  public static Result tunelab(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.execute(args, new PrintWriter(out), new PrintWriter(err));
    return new Result(code, out.toString(), err.toString());
  }
}
