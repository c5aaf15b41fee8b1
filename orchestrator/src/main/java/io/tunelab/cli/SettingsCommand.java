package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.store.CellSettings;
import io.tunelab.store.ResultReader;
import io.tunelab.store.StoredExperiment;
import io.tunelab.view.SettingsFiles;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tunelab settings [EXPERIMENT]}: a cell's settings as files to deploy on its hosts. */
@Command(
    name = "settings",
    mixinStandardHelpOptions = true,
    description = {
      "Print what one cell of an experiment (the latest by default) set on its hosts, as files to"
          + " deploy: the search's winner, or the cell --cell names. Per host: sysctl.d lines,"
          + " udev rules that match each disk by its WWID or serial, or a tuned profile; or the"
          + " cell's values as matrix YAML.",
      "A setting a format cannot hold is named in a comment, never left out."
    })
final class SettingsCommand implements Callable<Integer> {
  @Mixin ExperimentArgument experiment;

  @Option(
      names = "--cell",
      paramLabel = "N",
      description = "The cell, by the number reports show (default: the search's winner).")
  Integer cell;

  @Option(
      names = "--format",
      defaultValue = "yaml",
      paramLabel = "FORMAT",
      description = "sysctl, udev, tuned or yaml (default).")
  String format;

  @Mixin DatabaseOption db;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    SettingsFiles.Format chosen = SettingsFiles.Format.of(format);
    if (chosen == null) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "--format " + format + ": settings prints sysctl, udev, tuned or yaml");
    }
    CellSettings settings;
    try (ResultReader store = Databases.openReader(db)) {
      StoredExperiment found = experiment.find(store);
      int ordinal = cell != null ? cell : winner(store, found);
      settings =
          store
              .cellSettings(found.id(), ordinal)
              .orElseThrow(
                  () ->
                      new TunelabException(
                          TunelabException.BAD_INPUT,
                          "experiment "
                              + found.id()
                              + " ("
                              + found.name()
                              + ") has no cell "
                              + ordinal));
    }
    if (settings.settings().isEmpty() && chosen != SettingsFiles.Format.YAML) {
      spec.commandLine()
          .getErr()
          .println(
              "warning: cell "
                  + settings.ordinal()
                  + " has no ok trial whose settings were recorded: only its kernels are shown");
    }
    spec.commandLine().getOut().print(SettingsFiles.render(settings, chosen));
    return 0;
  }

  private static int winner(ResultReader store, StoredExperiment found) {
    OptionalInt winner = store.searchWinner(found.id());
    if (winner.isEmpty()) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "experiment "
              + found.id()
              + " ("
              + found.name()
              + ") has no search winner: name a cell with --cell N (tunelab report numbers"
              + " them)");
    }
    return winner.getAsInt();
  }
}
