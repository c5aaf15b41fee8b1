package io.tunelab.cli;

import io.tunelab.matrix.Matrix;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code tunelab run MATRIX}: validate, preflight, run every trial, restore, report. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = "Run an experiment matrix and store every trial.")
final class RunCommand implements Callable<Integer> {
  @Parameters(paramLabel = "MATRIX", description = "The experiment matrix (YAML).")
  Path matrix;

  @Mixin RunOptions options;

  @Mixin SetOption set;

  @ParentCommand TunelabCommand top;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Matrix m = MatrixFiles.load(matrix, set.overrides());
    return ExperimentSession.execute(
        m,
        Inventories.forMatrix(options.hosts, m),
        options.db,
        null,
        options.recovery,
        options.keepKernel,
        spec.commandLine().getOut(),
        new ExperimentSession.Watch(top.terminal, options.maxTime.value()));
  }
}
