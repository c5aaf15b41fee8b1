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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tunelab compare --axis} on the server's kernel as an axis, the latest experiment: the
 * table with a cell that has no ok trial on one side, the kernels' command lines in the header, and
 * what it refuses.
 */
class CompareAxisTest {
  private static final String KERNELS =
      "server.kernel=" + Studies.KERNELS.get(0) + "," + Studies.KERNELS.get(1);

  @TempDir static Path dir;
  static String db;

  @BeforeAll
  static void buildDatabase() throws Exception {
    db = dir.resolve("kernels.db").toString();
    try (JdbcResultStore store = JdbcResultStore.open(Path.of(db), Fixtures.CLOCK)) {
      Studies.nfs(store);
      Studies.kernels(store, Path.of(db));
    }
  }

  private static Cli.Result run(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "compare";
    all[1] = "--db";
    all[2] = db;
    System.arraycopy(args, 0, all, 3, args.length);
    return Cli.tunelab(all);
  }

  private static String compare(String... args) {
    Cli.Result r = run(args);
    assertEquals(0, r.code(), r.all());
    return r.out();
  }

  private static void refused(String message, String... args) {
    Cli.Result r = run(args);
    assertEquals(2, r.code(), r.all());
    assertEquals("", r.out());
    assertTrue(r.err().contains(message), "expected '" + message + "' in: " + r.err());
    assertFalse(r.all().contains("\tat "), "a stack trace: " + r.all());
  }

  @Test
  void twoKernelsOfTheLatestExperimentInEveryFormat() {
    GoldenFiles.assertMatches("compare/kernel-axis.txt", compare("--axis", KERNELS));
    GoldenFiles.assertMatches(
        "compare/kernel-axis.md", compare("--axis", KERNELS, "--format", "md"));
    GoldenFiles.assertMatches(
        "compare/kernel-axis.csv", compare("--axis", KERNELS, "--format", "csv"));
    GoldenFiles.assertMatches(
        "compare/kernel-axis.json", compare("--axis", KERNELS, "--format", "json"));
  }

  @Test
  void anHtmlPageToAttachToAMail() throws Exception {
    Path page = dir.resolve("kernels.html");
    Cli.Result r = run("--axis", KERNELS, "--html", page.toString());

    assertEquals(0, r.code(), r.all());
    assertEquals("", r.out());
    assertEquals("tunelab: wrote " + page + "\n", r.err());
    String html = Files.readString(page);
    assertTrue(html.contains("content=\"default-src 'none';"), html);
    // The body: the style is report --html's and may change on its own.
    GoldenFiles.assertMatches("compare/kernel-axis.html", html.substring(html.indexOf("<body>")));
  }

  @Test
  void theReportsGuideShowsTheTableAsItIs() {
    String guide = RepoFiles.read(RepoFiles.repoRoot().resolve("docs/reports.md"));
    String golden = RepoFiles.read(RepoFiles.testResources("compare/kernel-axis.txt"));
    String shown = golden.substring(0, golden.indexOf("warnings:\n"));
    assertTrue(guide.contains(shown), "docs/reports.md shows compare/kernel-axis.txt");
  }

  @Test
  void theAxisByItsShortNameOrTheExperimentByNameIsTheSameComparison() {
    String expected = compare("--axis", KERNELS);
    assertEquals(expected, compare("--axis", KERNELS.replace("server.kernel", "kernel")));
    assertEquals(expected, compare("kernel-axis", "--axis", KERNELS));
  }

  @Test
  void theTimeAndOneJobCompareAsInCompareAB() {
    String out = compare("--axis", KERNELS, "--metric", "seconds", "--job", "dd.0");
    assertTrue(out.contains("metric: seconds (s), lower is better; job dd.0"), out);
    assertTrue(out.contains("  4/0  bs=4M\n"), out);
  }

  @Test
  void sidesWithTheSameCommandLinesShowNone() {
    String out = compare("--axis", "bs=64M,16M");
    assertFalse(out.contains("cmdline"), out);
    assertFalse(out.contains("-: no ok trial"), out);
  }

  @Test
  void anUnknownAxisOrValueIsRefusedWithTheClosestName() {
    refused(
        "experiment 3 (kernel-axis) has no axis 'server.kernal' (axes: kernel, bs); did you mean"
            + " 'server.kernel'?",
        "--axis",
        "server.kernal=" + Studies.KERNELS.get(0) + "," + Studies.KERNELS.get(1));
    refused(
        "axis kernel of experiment 3 (kernel-axis) has no value '6.1.0-49-amd64' (values:"
            + " 6.1.0-47-amd64, 6.1.0-50-amd64); did you mean '6.1.0-47-amd64'?",
        "--axis",
        "server.kernel=6.1.0-49-amd64," + Studies.KERNELS.get(1));
  }

  @Test
  void otherThanTwoDifferentValuesIsRefused() {
    refused("exactly two values", "--axis", "server.kernel=" + Studies.KERNELS.get(0));
    refused("exactly two values", "--axis", KERNELS + ",6.1.0-51-amd64");
    refused("exactly two values", "--axis", "server.kernel=," + Studies.KERNELS.get(0));
    refused(
        "--axis needs two different values, not 6.1.0-47-amd64 twice",
        "--axis",
        "server.kernel=6.1.0-47-amd64,6.1.0-47-amd64");
    refused("with --axis, compare takes one experiment", "1", "3", "--axis", KERNELS);
  }
}
