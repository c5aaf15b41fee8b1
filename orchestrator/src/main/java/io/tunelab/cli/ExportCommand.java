package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.report.ExportFormat;
import io.tunelab.report.SampleWriter;
import io.tunelab.store.ReportSelection;
import io.tunelab.store.ResultReader;
import io.tunelab.store.StoredExperiment;
import io.tunelab.store.TrialCounts;
import io.tunelab.store.TrialTable;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tunelab export [EXPERIMENT]}: every sample in long format, one row each with every
 * parameter and knob of its cell, streamed from a database cursor in constant memory.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description = {
      "Write every sample of an experiment (the latest by default) in long format: one row per"
          + " sample with its trial, cell, every parameter (param:AXIS) and knob (knob:KNOB).",
      "With --processes, a row per workload process instead (its host, effective ionice, nice,"
          + " cpus, exit code, seconds); with --outputs, a row per kept tool output (fio's JSON)"
          + " with its text.",
      "Streamed as read: any number of samples in constant memory.",
      "Exits 1 after writing when the experiment has trials that have not run."
    })
final class ExportCommand implements Callable<Integer> {
  @Mixin ExperimentArgument experiment;

  @Option(
      names = "--job",
      paramLabel = "JOB,…",
      description =
          "Only these jobs' samples (as samples.job: writer is the job, writer.0 one process,"
              + " vmstat@client a monitor); with --processes or --outputs, jobs or processes.")
  String jobs;

  @Option(
      names = "--processes",
      description = "A row per workload process of every trial instead of the samples.")
  boolean processes;

  @Option(
      names = "--outputs",
      description =
          "A row per kept tool output (fio's JSON) of every trial, with its text, instead of the"
              + " samples.")
  boolean outputs;

  @Option(
      names = "--format",
      defaultValue = "csv",
      paramLabel = "FORMAT",
      completionCandidates = FormatCandidates.Export.class,
      description = "csv (default), json (one array, an object per line) or jsonl (JSON Lines).")
  String format;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "Write to FILE instead of standard output.")
  Path output;

  @Mixin DatabaseOption db;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    ExportFormat chosen = ExportFormat.named(format);
    if (processes && outputs) {
      throw new TunelabException(
          TunelabException.BAD_INPUT, "--processes and --outputs are two exports: choose one");
    }
    List<String> only = ReportSelection.parse(jobs, null).jobs();
    try (ResultReader store = Databases.openReader(db)) {
      StoredExperiment found = experiment.find(store);
      TrialCounts counts = store.trialCounts(found.id());
      TrialTable table = processes ? TrialTable.PROCESSES : outputs ? TrialTable.OUTPUTS : null;
      store.checkExportJobs(found.id(), table, only);
      try (Writer out = open()) {
        SampleWriter writer = new SampleWriter(out, chosen);
        if (table != null) {
          store.exportTrialRows(found.id(), table, only, writer);
        } else {
          store.exportSamples(found.id(), only, writer);
        }
      } catch (UncheckedIOException | IOException e) {
        if (output == null && StandardOutput.isPipe()) {
          // The reader went away (| head): the normal end of a Unix filter, not an error.
          return 0;
        }
        IOException cause = e instanceof UncheckedIOException u ? u.getCause() : (IOException) e;
        throw new TunelabException(
            TunelabException.HOST_REFUSED,
            "cannot write "
                + (output == null ? "standard output" : output)
                + ": "
                + ReportCommand.reason(cause));
      }
      return ReportCommand.unfinished(
          found.id(),
          found.name(),
          found.status(),
          counts,
          "exported",
          spec.commandLine().getErr());
    }
  }

  // Standard output goes through picocli's writer so that tests can capture it; a file
  // through a buffer of its own.
  private Writer open() {
    if (output == null) {
      return new NonClosing(spec.commandLine().getOut());
    }
    try {
      return new BufferedWriter(
          new OutputStreamWriter(Files.newOutputStream(output), StandardCharsets.UTF_8), 1 << 16);
    } catch (IOException e) {
      throw new TunelabException(
          TunelabException.BAD_INPUT, "cannot write " + output + ": " + ReportCommand.reason(e));
    }
  }

  /**
   * Standard output stays open after the export; it is only flushed. A PrintWriter keeps its errors
   * to itself, so they are asked for now and then: a closed pipe ({@code | head}) ends the export
   * instead of writing a million lines into nothing.
   */
  private static final class NonClosing extends Writer {
    private static final int CHECK_EVERY = 4096;

    private final PrintWriter out;
    private int writes;

    NonClosing(PrintWriter out) {
      this.out = out;
    }

    @Override
    public void write(char[] buf, int off, int len) throws IOException {
      out.write(buf, off, len);
      checkNowAndThen();
    }

    @Override
    public void write(String s) throws IOException {
      out.write(s);
      checkNowAndThen();
    }

    @Override
    public Writer append(CharSequence s) throws IOException {
      out.append(s);
      checkNowAndThen();
      return this;
    }

    private void checkNowAndThen() throws IOException {
      if (++writes % CHECK_EVERY == 0 && out.checkError()) {
        throw new IOException("closed pipe or full disk");
      }
    }

    @Override
    public void flush() throws IOException {
      out.flush();
      if (out.checkError()) {
        throw new IOException("closed pipe or full disk");
      }
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
