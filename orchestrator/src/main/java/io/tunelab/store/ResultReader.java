package io.tunelab.store;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What reports, exports, queries and {@code status} read of a store; a store opened read-only is
 * only this. Reads of a running experiment see it as of its last commit.
 */
public interface ResultReader extends AutoCloseable {

  /** Where the store is, as messages name it (an SQLite store: its file's absolute path). */
  String location();

  /** The experiment by id, or the latest one with that name. */
  Optional<StoredExperiment> findExperiment(String idOrName);

  /** The files the experiment read besides its matrix, as they were when it was planned. */
  List<StoredFile> files(long experimentId);

  /** The most recently created experiment (for {@code report} and {@code status} without one). */
  Optional<StoredExperiment> latest();

  /** Every experiment with its progress, oldest first (for {@code tunelab status}). */
  List<ExperimentSummary> experiments();

  /** The experiment's boots and host starts, oldest first (docs/kernels.md). */
  List<Boot> boots(long experimentId);

  /** How many trials of the experiment are in each state (for exit code 1 and reports). */
  TrialCounts trialCounts(long experimentId);

  /** How far the experiment got, read while it runs; empty for an unknown id. */
  Optional<ExperimentProgress> progress(long experimentId);

  /**
   * The experiment's report data for every job of the selection, in the order asked, each with the
   * metrics it shows ({@link ReportData#shown()}); read at one point in time, so that they agree
   * while the experiment runs. An unknown id, job or metric fails with exit code 2 and a message
   * listing what there is.
   */
  List<ReportData> reports(long experimentId, ReportSelection selection);

  /** The experiment's host facts and the knobs each cell ran with, for compare's differences. */
  RunConditions conditions(long experimentId);

  /** The ordinal of the cell a search experiment's last round names its winner; empty if none. */
  OptionalInt searchWinner(long experimentId);

  /**
   * A search experiment's trials with their value of {@code job}'s {@code metric} (its objective),
   * in run order, and its candidates' states per round; no rounds for an experiment that is not a
   * search.
   */
  SearchRecord search(long experimentId, String job, String metric);

  /** What cell {@code ordinal} of the experiment set on its hosts; empty for no such cell. */
  Optional<CellSettings> cellSettings(long experimentId, int ordinal);

  /** The experiment's report data for the first job of the selection. */
  default ReportData report(long experimentId, ReportSelection selection) {
    return reports(experimentId, selection).get(0);
  }

  /** The experiment's report data with the defaults. */
  default ReportData report(long experimentId) {
    return report(experimentId, ReportSelection.DEFAULT);
  }

  /**
   * Streams the experiment's samples of {@code jobs} ({@code writer}, {@code writer.0}, {@code
   * vmstat@client}; all when empty) to {@code sink} at one point in time, in memory that grows with
   * its cells, not its samples. Returns how many there were. A job the experiment never measured
   * fails with exit code 2 and the list of its jobs.
   */
  long exportSamples(long experimentId, List<String> jobs, SampleSink sink);

  /** Every sample of the experiment; see {@link #exportSamples(long, List, SampleSink)}. */
  default long exportSamples(long experimentId, SampleSink sink) {
    return exportSamples(experimentId, List.of(), sink);
  }

  /**
   * Streams the experiment's rows of a per-trial table (the processes, or kept tool output
   * decompressed) to {@code sink}, those of {@code jobs} only (names of jobs or of processes; all
   * when empty). Returns how many there were.
   */
  long exportTrialRows(long experimentId, TrialTable table, List<String> jobs, TrialRowSink sink);

  /**
   * Fails with exit code 2, listing the jobs there are, when one of {@code jobs} names nothing
   * {@link #exportSamples} ({@code table} null) or {@link #exportTrialRows} would find: so that a
   * mistyped name is refused before an output file is created.
   */
  void checkExportJobs(long experimentId, TrialTable table, List<String> jobs);

  /**
   * The rows of one SQL statement of the user's, in the store's own dialect; on a store opened
   * read-only a statement that would change it fails. Bad SQL or several statements fail with exit
   * code 2.
   */
  ResultTable query(String sql);

  @Override
  void close();
}
