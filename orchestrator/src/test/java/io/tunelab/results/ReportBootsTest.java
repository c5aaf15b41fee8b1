package io.tunelab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tunelab.report.Studies;
import io.tunelab.store.Fixtures;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import io.tunelab.testing.GoldenFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tunelab report} of an experiment whose kernels were each booted twice: between-boot
 * against within-boot spread per cell, in every format.
 */
class ReportBootsTest {
  @TempDir static Path dir;
  static String db;

  @BeforeAll
  static void buildDatabase() throws Exception {
    db = dir.resolve("kernels.db").toString();
    try (JdbcResultStore store = JdbcResultStore.open(Path.of(db), Fixtures.CLOCK)) {
      Studies.kernels(store, Path.of(db));
    }
  }

  private static String report(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "report";
    all[1] = "--db";
    all[2] = db;
    System.arraycopy(args, 0, all, 3, args.length);
    Cli.Result r = Cli.tunelab(all);
    assertEquals(0, r.code(), r.all());
    return r.out();
  }

  @Test
  void theClassicTableAndTheTimesPerRepetition() {
    GoldenFiles.assertMatches("report/kernel-boots.txt", report());
    GoldenFiles.assertMatches(
        "report/kernel-boots-seconds.md", report("--metric", "seconds", "--format", "md"));
  }

  @Test
  void jsonListsTheSpreadPerCellWithAnOkTrial() throws Exception {
    JsonNode boots = new ObjectMapper().readTree(report("--format", "json")).get("boots");
    assertEquals(5, boots.size(), boots.toString());
    JsonNode first = boots.get(0);
    assertEquals(1, first.get("ordinal").asInt());
    assertEquals("mib_per_s", first.get("metric").asText());
    assertEquals(2, first.get("boots").asInt());
    // 16.1, 16.3 s on the first boot, 16.2, 16.4 s on the second: 1 GiB / s in MiB/s.
    double[] a = {1024 / 16.1, 1024 / 16.3};
    double[] b = {1024 / 16.2, 1024 / 16.4};
    double ma = (a[0] + a[1]) / 2;
    double mb = (b[0] + b[1]) / 2;
    double within =
        Math.sqrt(
            (Math.pow(a[0] - ma, 2)
                    + Math.pow(a[1] - ma, 2)
                    + Math.pow(b[0] - mb, 2)
                    + Math.pow(b[1] - mb, 2))
                / 2);
    assertEquals(Math.abs(ma - mb) / Math.sqrt(2), first.get("between_boot_sd").asDouble(), 1e-9);
    assertEquals(within, first.get("within_boot_sd").asDouble(), 1e-9);
  }

  @Test
  void theHtmlPageHasThemUnderTheTables() throws Exception {
    Path page = dir.resolve("kernels.html");
    report("--html", page.toString());
    String html = Files.readString(page);
    assertTrue(html.contains("<h2>boots, mib_per_s (between:"), html);
    assertTrue(html.contains("<li>cell 4 (kernel=6.1.0-50-amd64/bs=64M): boots: 2,"), html);
  }
}
