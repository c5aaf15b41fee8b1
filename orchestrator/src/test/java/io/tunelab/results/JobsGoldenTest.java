package io.tunelab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.report.Studies;
import io.tunelab.store.Fixtures;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import io.tunelab.testing.GoldenFiles;
import io.tunelab.testing.RepoFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code report}, {@code compare} and {@code export} of an experiment of two jobs with monitors
 * (study 4, reader vs writer), per job, side by side and on monitor metrics, against golden files.
 */
class JobsGoldenTest {
  @TempDir static Path dir;
  static String db;

  @BeforeAll
  static void buildDatabase() {
    db = dir.resolve("rw.db").toString();
    try (JdbcResultStore store = JdbcResultStore.open(Path.of(db), Fixtures.CLOCK)) {
      Studies.readerVsWriter(store);
    }
  }

  private static Cli.Result run(String command, String... args) {
    List<String> all = new ArrayList<>(List.of(command, "--db", db));
    all.addAll(List.of(args));
    return Cli.tunelab(all.toArray(String[]::new));
  }

  private static String ok(String command, String... args) {
    Cli.Result r = run(command, args);
    assertEquals(0, r.code(), r.all());
    assertEquals("", r.err());
    return r.out();
  }

  @Test
  void theWritersAndTheReadersTimeAndThroughputSideBySide() throws Exception {
    GoldenFiles.assertMatches(
        "report/reader-vs-writer.txt", ok("report", "--job", "writer,reader"));
    GoldenFiles.assertMatches(
        "report/reader-vs-writer.csv", ok("report", "--job", "writer,reader", "--format", "csv"));
    GoldenFiles.assertMatches(
        "report/reader-vs-writer.json", ok("report", "--job", "writer,reader", "--format", "json"));
  }

  @Test
  void throughputBesideTheCpuTimeVmstatSaw() throws Exception {
    String[] args = {"--job", "all,vmstat@client", "--metric", "iops,us,sy,id,wa"};
    GoldenFiles.assertMatches("report/reader-vs-writer-cpu.txt", ok("report", args));
    List<String> md = new ArrayList<>(List.of(args));
    md.addAll(List.of("--format", "md", "--rows", "scheduler,reader_class"));
    GoldenFiles.assertMatches(
        "report/reader-vs-writer-cpu.md", ok("report", md.toArray(String[]::new)));
  }

  @Test
  void whatFioCountedBesideWhatTheDiskSawUnderHeadingsWiderThanTheirColumns() throws Exception {
    GoldenFiles.assertMatches(
        "report/reader-vs-writer-iostat.txt",
        ok(
            "report",
            "--job",
            "reader,iostat@client:sdb",
            "--metric",
            "read_iops,r_per_s",
            "--rows",
            "scheduler,reader_class"));
  }

  @Test
  void oneJobOneProcessAndOneMonitorDeviceOnTheirOwn() throws Exception {
    GoldenFiles.assertMatches(
        "report/reader-vs-writer-reader.txt", ok("report", "--job", "reader"));
    GoldenFiles.assertMatches(
        "report/reader-vs-writer-writer1.txt",
        ok("report", "--job", "writer.1", "--metric", "mib_per_s"));
    GoldenFiles.assertMatches(
        "report/reader-vs-writer-await.txt",
        ok("report", "--job", "iostat@client:sdb", "--metric", "r_await"));
  }

  @Test
  void whatTheReadersClassDoesForTheReaderAndCostsTheWriter() throws Exception {
    GoldenFiles.assertMatches(
        "compare/reader-class-reader.txt",
        ok("compare", "--axis", "reader_class=be/0,rt/0", "--job", "reader"));
    GoldenFiles.assertMatches(
        "compare/reader-class-reader.json",
        ok("compare", "--axis", "reader_class=be/0,rt/0", "--job", "reader", "--format", "json"));
    GoldenFiles.assertMatches(
        "compare/reader-class-writer.txt",
        ok("compare", "--axis", "reader_class=be/0,rt/0", "--job", "writer"));
  }

  @Test
  void iowaitOfTwoSchedulers() throws Exception {
    GoldenFiles.assertMatches(
        "compare/scheduler-iowait.txt",
        ok(
            "compare",
            "--axis",
            "scheduler=mq-deadline,bfq",
            "--job",
            "vmstat@client",
            "--metric",
            "wa"));
  }

  @Test
  void theSamplesOfSomeJobsTheProcessesAndTheKeptOutput() throws Exception {
    GoldenFiles.assertMatches(
        "export/reader-vs-writer-jobs.csv", ok("export", "--job", "writer,reader"));
    GoldenFiles.assertMatches("export/reader-vs-writer-processes.csv", ok("export", "--processes"));
    GoldenFiles.assertMatches(
        "export/reader-vs-writer-processes.jsonl",
        ok("export", "--processes", "--job", "reader", "--format", "jsonl"));
    GoldenFiles.assertMatches(
        "export/reader-vs-writer-outputs.json",
        ok("export", "--outputs", "--job", "reader.0", "--format", "json"));
  }

  @Test
  void theReportsGuideShowsTheseOutputsAsTheyAre() {
    String guide = RepoFiles.read(RepoFiles.repoRoot().resolve("docs/reports.md"));
    for (String golden :
        List.of(
            "report/reader-vs-writer.txt",
            "report/reader-vs-writer-cpu.txt",
            "compare/scheduler-iowait.txt")) {
      assertTrue(
          guide.contains(RepoFiles.read(RepoFiles.testResources(golden))),
          "docs/reports.md shows " + golden);
    }
  }

  @Test
  void anUnknownJobListsTheJobsAndGuesses() {
    Cli.Result r = run("report", "--job", "wirter");
    assertEquals(2, r.code(), r.all());
    assertEquals(
        "tunelab: experiment 1 (reader-vs-writer) has no job 'wirter' (jobs: all,"
            + " iostat@client:sdb, reader, reader.0, vmstat@client, writer, writer.0, writer.1);"
            + " did you mean 'writer'?\n",
        r.err());
    assertTrue(
        run("compare", "--axis", "reader_class=be/0,rt/0", "--job", "vmstat")
            .err()
            .endsWith("did you mean 'vmstat@client'?\n"));
    assertTrue(
        run("report", "--job", "iostat@client")
            .err()
            .endsWith("did you mean 'iostat@client:sdb'?\n"));
    assertTrue(run("export", "--job", "reader,writr").err().contains("did you mean 'writer'?"));
    Path file = dir.resolve("refused.csv");
    Cli.Result processes = run("export", "--processes", "--job", "reader.1", "-o", file.toString());
    assertEquals(2, processes.code(), processes.all());
    assertTrue(processes.err().contains("did you mean 'reader.0'?"), processes.err());
    assertFalse(Files.exists(file), "nothing written for a refused export");
  }

  @Test
  void aMetricNoneOfTheJobsHasIsRefused() {
    Cli.Result r = run("report", "--job", "all,vmstat@client", "--metric", "iops,usr");
    assertEquals(2, r.code(), r.all());
    assertEquals(
        "tunelab: experiment 1 (reader-vs-writer) has no metric 'usr' for jobs all, vmstat@client"
            + " (metrics: bi, bo, bytes, id, iops, mib_per_s, seconds, sy, us, wa); did you mean"
            + " 'us'?\n",
        r.err());
    Cli.Result none = run("report", "--job", "writer,vmstat@client");
    assertEquals(2, none.code(), none.all());
    assertTrue(
        none.err().contains("job vmstat@client of experiment 1 (reader-vs-writer) has neither"),
        none.err());
    Cli.Result cols = run("report", "--job", "writer,reader", "--cols", "reader_class");
    assertEquals(2, cols.code(), cols.all());
    Cli.Result compare = run("compare", "--axis", "reader_class=be/0,rt/0", "--job", "a,b");
    assertTrue(compare.err().contains("compare takes one job and one metric"), compare.err());
  }
}
