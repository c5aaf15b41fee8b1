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

/** {@code tunelab compare} of two kernels and of two values of an axis, against golden files. */
class CompareGoldenTest {
  @TempDir static Path dir;
  static String db;
  static long base;
  static long next;
  static long iscsi;

  @BeforeAll
  static void buildDatabase() {
    db = dir.resolve("study.db").toString();
    try (JdbcResultStore store = JdbcResultStore.open(Path.of(db), Fixtures.CLOCK)) {
      long[] ids = Studies.nfs(store);
      base = ids[0];
      next = ids[1];
      iscsi = Studies.iscsi(store);
    }
  }

  private static String compare(int code, String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "compare";
    all[1] = "--db";
    all[2] = db;
    System.arraycopy(args, 0, all, 3, args.length);
    Cli.Result r = Cli.tunelab(all);
    assertEquals(code, r.code(), r.all());
    return r.out();
  }

  @Test
  void twoKernelsInEveryFormat() throws Exception {
    String a = String.valueOf(base);
    String b = String.valueOf(next);
    GoldenFiles.assertMatches("compare/" + "nfs-kernels.txt", compare(0, a, b));
    GoldenFiles.assertMatches("compare/" + "nfs-kernels.md", compare(0, a, b, "--format", "md"));
    GoldenFiles.assertMatches("compare/" + "nfs-kernels.csv", compare(0, a, b, "--format", "csv"));
    GoldenFiles.assertMatches(
        "compare/" + "nfs-kernels.json", compare(0, a, b, "--format", "json"));
  }

  @Test
  void timeInsteadOfThroughputWithAStricterTest() throws Exception {
    GoldenFiles.assertMatches(
        "compare/" + "nfs-kernels-seconds.txt",
        compare(
            0,
            String.valueOf(base),
            String.valueOf(next),
            "--metric",
            "seconds",
            "--alpha",
            "0.01",
            "--min-change",
            "5%"));
  }

  @Test
  void twoValuesOfOneAxis() throws Exception {
    GoldenFiles.assertMatches(
        "compare/" + "nfs-writers-2-vs-10.txt",
        compare(0, String.valueOf(next), "--axis", "dd=2,10"));
  }

  @Test
  void twoCasesWhoseNamesHoldSlashesEqualsAndColonsOfAnUnfinishedExperiment() throws Exception {
    GoldenFiles.assertMatches(
        "compare/" + "iscsi-cases.txt",
        compare(1, String.valueOf(iscsi), "--axis", "case=default,client:ra=2M/server:ra=2M"));
  }
}
