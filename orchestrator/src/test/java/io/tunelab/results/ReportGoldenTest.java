package io.tunelab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.report.Studies;
import io.tunelab.store.Fixtures;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import io.tunelab.testing.GoldenFiles;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tunelab report} in every layout and format, on fixed data, against golden files. */
class ReportGoldenTest {
  @TempDir static Path dir;
  static String iscsi;
  static String nfs;
  static long nfsId;

  @BeforeAll
  static void buildDatabases() {
    iscsi = dir.resolve("iscsi.db").toString();
    nfs = dir.resolve("nfs.db").toString();
    try (JdbcResultStore store = JdbcResultStore.open(Path.of(iscsi), Fixtures.CLOCK)) {
      Studies.iscsi(store);
    }
    try (JdbcResultStore store = JdbcResultStore.open(Path.of(nfs), Fixtures.CLOCK)) {
      nfsId = Studies.nfs(store)[0];
    }
  }

  /** Runs report; the interrupted iSCSI study exits 1, the finished NFS study 0. */
  private static String report(String db, int code, String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "report";
    all[1] = "--db";
    all[2] = db;
    System.arraycopy(args, 0, all, 3, args.length);
    Cli.Result r = Cli.tunelab(all);
    assertEquals(code, r.code(), r.all());
    return r.out();
  }

  @Test
  void classicAsMarkdownCsvAndJson() throws Exception {
    GoldenFiles.assertMatches("report/" + "iscsi-readahead.txt", report(iscsi, 1));
    GoldenFiles.assertMatches("report/" + "iscsi-readahead.md", report(iscsi, 1, "--format", "md"));
    GoldenFiles.assertMatches(
        "report/" + "iscsi-readahead.csv", report(iscsi, 1, "--format", "csv"));
    GoldenFiles.assertMatches(
        "report/" + "iscsi-readahead.json", report(iscsi, 1, "--format", "json"));
  }

  @Test
  void casesAsRowsBlockSizesAsColumns() throws Exception {
    GoldenFiles.assertMatches(
        "report/" + "iscsi-pivot.txt", report(iscsi, 1, "--rows", "case", "--cols", "bs"));
  }

  @Test
  void oneMetricPerRepetitionWithTheOtherAxisAsBlocks() throws Exception {
    GoldenFiles.assertMatches(
        "report/" + "nfs-seconds-by-writers.txt",
        report(nfs, 0, String.valueOf(nfsId), "--metric", "seconds", "--rows", "dd"));
  }

  @Test
  void writersDownCasesAcrossInMarkdown() throws Exception {
    GoldenFiles.assertMatches(
        "report/" + "nfs-pivot.md",
        report(nfs, 0, String.valueOf(nfsId), "--rows", "dd", "--cols", "case", "--format", "md"));
  }

  @Test
  void thePivotAsCsvGivesMeanAndStdColumns() throws Exception {
    GoldenFiles.assertMatches(
        "report/" + "nfs-pivot.csv",
        report(nfs, 0, String.valueOf(nfsId), "--cols", "case", "--format", "csv"));
  }
}
