package io.tunelab.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Writes the bash (and zsh, through bashcompinit) completion script at build time: picocli's
 * generated script, whose EXPERIMENT arguments are made to offer the experiments in the database.
 *
 * <p>picocli completes commands, options and the candidates of {@code --format}, but a script
 * cannot know the ids in a database. So every {@code local positionals=""} of a command whose
 * positional is EXPERIMENT becomes a call of {@code _tunelab_experiments}, which runs the hidden
 * {@code tunelab complete experiments} with the {@code --db} given on the command line.
 */
public final class CompletionScript {
  static final String NAME = "tunelab";
  private static final String EMPTY = "local positionals=\"\"";
  private static final String EXPERIMENTS = "local positionals=$(_tunelab_experiments)";
  private static final String HOOK =
      """

      # tunelab: the EXPERIMENT argument of report, compare, export and resume completes to the
      # ids and names of the experiments in the database (--db on the command line, else
      # $TUNELAB_DB, else ./tunelab.db), which the hidden `tunelab complete experiments` prints
      # without writing anything; it prints nothing when there is no database.
      function _tunelab_experiments() {
        local i db=() value
        for (( i = 1; i < COMP_CWORD; i++ )); do
          if [[ "${COMP_WORDS[i]}" == --db ]]; then
            value=${COMP_WORDS[i+1]}
            [[ "$value" == = ]] && value=${COMP_WORDS[i+2]}
            db=(--db "${value/#\\~/$HOME}")
          fi
        done
        "${COMP_WORDS[0]/#\\~/$HOME}" complete experiments "${db[@]}" 2>/dev/null
      }
      """;

  private CompletionScript() {}

  /** Writes the script to the file named by the only argument. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: CompletionScript FILE");
    }
    Path out = Path.of(args[0]);
    if (out.getParent() != null) {
      Files.createDirectories(out.getParent());
    }
    Files.writeString(out, script(), StandardCharsets.UTF_8);
  }

  /** The completion script. */
  static String script() {
    CommandLine cli = new CommandLine(new TunelabCommand());
    String script = AutoComplete.bash(NAME, cli);
    for (String command : experimentCommands(cli.getCommandSpec())) {
      String function = "function _picocli_" + NAME + "_" + command + "() {";
      int start = script.indexOf(function);
      int at = start < 0 ? -1 : script.indexOf(EMPTY, start);
      int next = start < 0 ? -1 : script.indexOf("\nfunction ", start + function.length());
      if (at < 0 || (next >= 0 && at > next)) {
        // A picocli upgrade changed the script: fail the build rather than ship it half-working.
        throw new IllegalStateException("no '" + EMPTY + "' in " + function + " of the script");
      }
      script = script.substring(0, at) + EXPERIMENTS + script.substring(at + EMPTY.length());
    }
    return script + HOOK;
  }

  /** The subcommands that take an EXPERIMENT argument. */
  static List<String> experimentCommands(CommandSpec top) {
    List<String> names = new ArrayList<>();
    for (CommandLine sub : top.subcommands().values()) {
      CommandSpec spec = sub.getCommandSpec();
      boolean takesExperiment = false;
      for (PositionalParamSpec p : spec.positionalParameters()) {
        takesExperiment |= p.paramLabel().equals("EXPERIMENT");
      }
      if (takesExperiment && !names.contains(spec.name())) {
        names.add(spec.name());
      }
    }
    return names;
  }
}
