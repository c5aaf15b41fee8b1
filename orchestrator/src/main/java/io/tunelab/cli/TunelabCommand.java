package io.tunelab.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The top-level {@code tunelab} command: global options and the list of subcommands. */
@Command(
    name = "tunelab",
    mixinStandardHelpOptions = true,
    versionProvider = TunelabCommand.Version.class,
    description =
        "Runs kernel tunable experiments unattended and stores every repetition in SQLite.",
    subcommands = {
      RunCommand.class,
      PlanCommand.class,
      ResumeCommand.class,
      StatusCommand.class,
      RestoreCommand.class,
      QueryCommand.class,
      ReportCommand.class,
      EffectsCommand.class,
      SettingsCommand.class,
      CompareCommand.class,
      ExportCommand.class,
      ImportCommand.class,
      SubmitCommand.class,
      WorkerCommand.class,
      QueueCommand.class,
      HostsCommand.class,
      SchemaCommand.class,
      CompleteCommand.class,
      HelpCommand.class
    })
public final class TunelabCommand implements Runnable {
  @Option(
      names = "--stacktrace",
      scope = ScopeType.INHERIT,
      description = "Print the stack trace of an error.")
  boolean stacktrace;

  /** Whether standard output is a terminal a person watches (set by {@link Main}). */
  boolean terminal;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The version this jar was built as. */
  public static String version() {
    try (InputStream in =
        TunelabCommand.class.getResourceAsStream("/io/tunelab/version.properties")) {
      Properties p = new Properties();
      if (in != null) {
        p.load(in);
      }
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** Supplies {@code --version}. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"tunelab " + version()};
    }
  }
}
