package io.tunelab.results;

import static io.tunelab.store.Fixtures.cell;
import static io.tunelab.store.Fixtures.experiment;
import static io.tunelab.store.Fixtures.gib64;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.report.Studies;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.Fixtures;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What report, compare and export say to bad input: one clear line on standard error, exit code 2
 * (1 for an unfinished experiment, after the output), and never a stack trace.
 */
class BadInputTest {
  @TempDir static Path dir;
  static String db;
  static long nfsBase;
  static long nfsNew;
  static long iscsi;
  static long planned;
  static long otherValues;

  @BeforeAll
  static void buildDatabase() {
    db = dir.resolve("study.db").toString();
    try (JdbcResultStore store = JdbcResultStore.open(Path.of(db), Fixtures.CLOCK)) {
      long[] nfs = Studies.nfs(store);
      nfsBase = nfs[0];
      nfsNew = nfs[1];
      iscsi = Studies.iscsi(store);
      // Same axes as the NFS study, other values: nothing to match.
      otherValues =
          store.createExperiment(
              experiment("nfs-other", 3, 0, List.of(cell(1, "case", "local", "dd", "4"))),
              Fixtures.TOOL_VERSION);
      for (TrialRef t : store.unfinishedTrials(otherValues)) {
        store.commitTrial(TrialCommit.of(t.trialId(), gib64(16)));
      }
      store.setExperimentStatus(otherValues, ExperimentStatus.FINISHED);
      planned =
          store.createExperiment(
              experiment("planned", 3, 0, List.of(cell(1, "bs", "64M"))), Fixtures.TOOL_VERSION);
    }
  }

  private static Cli.Result run(String... args) {
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--db";
    all[args.length + 1] = db;
    return Cli.tunelab(all);
  }

  private static void refused(Cli.Result r, String message) {
    assertEquals(2, r.code(), r.all());
    assertTrue(r.err().startsWith("tunelab: "), r.err());
    assertTrue(r.err().contains(message), "expected '" + message + "' in: " + r.err());
    assertFalse(r.all().contains("\tat "), "a stack trace: " + r.all());
    assertFalse(r.err().contains("internal error"), r.err());
    assertEquals("", r.out());
  }

  @Test
  void anExperimentThatDoesNotExist() {
    refused(run("report", "no-such"), "no experiment 'no-such' in ");
    refused(run("report", "4711"), "no experiment '4711' in ");
    refused(run("compare", "1", "no-such"), "no experiment 'no-such'");
    refused(run("export", "no-such"), "no experiment 'no-such'");
  }

  @Test
  void aDatabaseThatDoesNotExist() {
    Cli.Result r = Cli.tunelab("report", "--db", dir.resolve("missing.db").toString());
    assertEquals(2, r.code());
    assertTrue(r.err().contains("no database at"), r.err());
    assertFalse(dir.resolve("missing.db").toFile().exists());
  }

  @Test
  void aMetricOrAxisOrJobThatIsNotThere() {
    refused(
        run("report", String.valueOf(nfsBase), "--metric", "mb_per_s"),
        "experiment 1 (nfs-writeback) has no metric 'mb_per_s' for job all"
            + " (metrics: bytes, iops, mib_per_s, seconds)");
    refused(
        run("report", String.valueOf(iscsi), "--rows", "blocksize"),
        "experiment 3 (iscsi-readahead) has no axis 'blocksize' (axes: scheduler, case, bs)");
    refused(run("report", String.valueOf(iscsi), "--cols", "read_ahead_kb"), "has no axis");
    refused(run("report", String.valueOf(iscsi), "--rows", "bs", "--cols", "bs"), "cannot be both");
    refused(
        run("compare", String.valueOf(nfsBase), String.valueOf(nfsNew), "--metric", "latency"),
        "has no metric 'latency'");
    refused(
        run("compare", String.valueOf(nfsBase), String.valueOf(nfsNew), "--job", "dd.9"),
        "has no job 'dd.9' (jobs: all, dd.0)");
    refused(
        run("compare", String.valueOf(nfsNew), "--axis", "writers=1,2"), "has no axis 'writers'");
    refused(
        run("compare", String.valueOf(nfsNew), "--axis", "dd=1,3"),
        "axis dd of experiment 2 (nfs-writeback) has no value '3' (values: 1, 2, 10, 20)");
    refused(
        run("report", String.valueOf(nfsBase), "--group", "dd"),
        "--group only applies with --html");
  }

  @Test
  void twoExperimentsWithNothingInCommon() {
    refused(
        run("compare", String.valueOf(nfsBase), String.valueOf(iscsi)),
        "experiments 1 and 3 have no cells in common: their axes differ (case, dd vs scheduler,"
            + " case, bs)");
    refused(
        run("compare", String.valueOf(nfsBase), String.valueOf(otherValues)),
        "experiment 1 nfs-writeback (finished) and experiment 4 nfs-other (finished) have no cells"
            + " in common (matched by their parameters)");
  }

  @Test
  void anExperimentWithNothingMeasured() {
    refused(
        run("compare", String.valueOf(planned), String.valueOf(planned)),
        "has nothing measured yet");
    refused(
        run("report", String.valueOf(planned), "--metric", "seconds"), "nothing was measured yet");
  }

  @Test
  void badOptions() {
    refused(run("compare", String.valueOf(nfsBase)), "compare needs two experiments");
    refused(run("compare", "1", "2", "3"), "");
    refused(
        run("compare", "1", "2", "--axis", "dd=1,2"), "with --axis, compare takes one experiment");
    refused(
        run("compare", "2", "--axis", "dd=1"),
        "--axis takes NAME=BASE,NEW with exactly two values");
    refused(run("compare", "2", "--axis", "dd"), "--axis takes NAME=BASE,NEW");
    refused(run("compare", "2", "--axis", "dd=2,2"), "two different values");
    refused(run("compare", "1", "2", "--min-change", "lots"), "--min-change takes a percentage");
    refused(
        run("compare", "1", "2", "--min-change", "1", "--threshold", "1"),
        "--threshold is another name of --min-change");
    refused(run("compare", "1", "2", "--alpha", "5"), "--alpha must lie between 0 and 1");
    refused(
        run("report", "--format", "xml"), "unknown format xml (expected text, md, csv or json)");
    refused(run("export", "--format", "xlsx"), "unknown format xlsx (expected csv, json or jsonl)");
  }

  @Test
  void outputThatCannotBeWritten() {
    String nowhere = dir.resolve("no/such/dir/out").toString();
    refused(
        run("report", "1", "--html", nowhere + ".html"),
        "cannot write " + nowhere + ".html: no such directory");
    refused(
        run("export", "1", "--output", nowhere + ".csv"),
        "cannot write " + nowhere + ".csv: no such directory");
  }

  @Test
  void anUnfinishedExperimentIsShownAndSaysWhatIsMissing() {
    Cli.Result r = run("report", String.valueOf(iscsi));

    assertEquals(1, r.code(), r.all());
    assertTrue(r.out().contains("mq-deadline  16M  10.020       -       -  102.196"), r.out());
    assertTrue(
        r.out()
            .contains(
                "unfinished: 2 of 24 trials have not run (cell 6); `tunelab resume 3` runs them"),
        r.out());
    assertEquals(
        "tunelab: experiment 3 (iscsi-readahead) is interrupted: 2 of 24 trials have not run;"
            + " shown what exists\n",
        r.err());

    Cli.Result csv = run("export", String.valueOf(iscsi));
    assertEquals(1, csv.code(), csv.err());
    assertTrue(csv.err().contains("exported what exists"), csv.err());
    assertTrue(csv.out().startsWith("experiment_id,experiment,"), csv.out());
  }

  @Test
  void everyResultsCommandHasHelp() {
    for (String command : List.of("report", "compare", "export", "query")) {
      Cli.Result r = Cli.tunelab(command, "--help");
      assertEquals(0, r.code(), r.all());
      assertTrue(r.out().contains("Usage: tunelab " + command), r.out());
    }
    assertTrue(Cli.tunelab("compare", "--help").out().contains("--axis=NAME=BASE,NEW"));
    assertTrue(Cli.tunelab("report", "--help").out().contains("--html=FILE"));
  }

  @Test
  void anEmptyDatabaseHasNoLatestExperiment() {
    Path empty = dir.resolve("empty.db");
    JdbcResultStore.open(empty).close();
    Cli.Result r = Cli.tunelab("report", "--db", empty.toString());
    assertEquals(2, r.code());
    assertTrue(r.err().contains("no experiment in " + empty.toAbsolutePath()), r.err());
  }
}
