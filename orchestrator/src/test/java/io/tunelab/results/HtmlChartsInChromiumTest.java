package io.tunelab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tunelab.report.Studies;
import io.tunelab.store.Fixtures;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import io.tunelab.testing.Prerequisites;
import io.tunelab.testing.TestTime;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens {@code tunelab report --html} in headless Chromium (Debian's {@code chromium}): the page's
 * own script must find every chart drawn, the console must stay free of errors, and the screenshot
 * must show coloured bars where the first chart is. Without Chromium the test is skipped, unless
 * CI=true, where it fails. The screenshots stay in target/html-report/ to look at.
 */
class HtmlChartsInChromiumTest {
  private static final Path OUT = Path.of("target", "html-report");

  /** The first colour of the palette, #0072B2, which the first series' bars are filled with. */
  private static final int BLUE = 0x0072B2;

  @TempDir static Path dir;
  static Path chromium;
  static Path db;
  static long nfs;
  static long iscsi;

  @BeforeAll
  static void findChromiumAndBuildTheDatabase() throws IOException {
    chromium = chromium();
    if (chromium == null) {
      return; // each test is reported skipped (or failed under CI), not the class left out
    }
    Files.createDirectories(OUT);
    db = dir.resolve("study.db");
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      nfs = Studies.nfs(store)[0];
      iscsi = Studies.iscsi(store);
    }
  }

  @BeforeEach
  void needsChromium() {
    Prerequisites.require(
        chromium != null,
        "headless Chromium is needed (apt-get install chromium): no chromium on PATH");
  }

  @Test
  void nfsWritersGroupedByCaseRenderAsBars() throws Exception {
    Path html = report("nfs.html", String.valueOf(nfs), "--group", "case");
    Rendered page = render(html, "nfs");

    assertTrue(page.check().startsWith("ok: 1 charts, 9 bars"), page.check());
    assertTrue(page.title().endsWith("(1 charts checked)"), page.title());
    assertEquals(List.of(), page.consoleErrors());
    // Nine bars of 3 colours, about 90 x 220 px each at the first chart's place.
    assertTrue(page.pixels(BLUE) > 5_000, "blue bar pixels: " + page.pixels(BLUE));
    assertTrue(page.nonWhite() > 30_000, "non-white pixels in the chart: " + page.nonWhite());
  }

  @Test
  void anInterruptedExperimentWithAFailureStillCharts() throws Exception {
    Path html = report("iscsi.html", String.valueOf(iscsi));
    Rendered page = render(html, "iscsi");

    assertTrue(page.check().startsWith("ok: 1 charts, 6 bars"), page.check());
    assertEquals(List.of(), page.consoleErrors());
    assertTrue(page.pixels(BLUE) > 5_000, "blue bar pixels: " + page.pixels(BLUE));
    assertTrue(page.dom().contains("unfinished: 2 of 24 trials have not run"), "unfinished note");
  }

  @Test
  void theCheckReportsABrokenChart() throws Exception {
    // The page's own check must be able to fail: remove the bars and it says so.
    Path html = report("broken.html", String.valueOf(nfs));
    String text = Files.readString(html).replace("class=\"bar\"", "class=\"gone\"");
    Path broken = OUT.resolve("broken-edited.html");
    Files.writeString(broken, text);

    Rendered page = render(broken, "broken");

    assertEquals("error: no bar has a size", page.check());
  }

  @Test
  void consoleErrorsAreSeenInChromiumsLog() throws Exception {
    // The watch on the console must be able to fire with this Chromium's log format.
    Path page = OUT.resolve("console-error.html");
    Files.writeString(
        page,
        "<html><body><script>console.error('boom'); undefinedFunction();</script></body></html>");

    Run run = chromium("--dump-dom", page.toAbsolutePath().toUri().toString());

    List<String> seen = console(run.err());
    assertTrue(seen.stream().anyMatch(l -> l.contains("boom")), run.err());
    assertTrue(seen.stream().anyMatch(l -> l.contains("Uncaught ReferenceError")), run.err());
  }

  /** What Chromium made of a page. */
  record Rendered(
      String dom, String title, String check, List<String> consoleErrors, BufferedImage png) {
    /** Pixels of exactly this colour in the first chart's area. */
    int pixels(int rgb) {
      int count = 0;
      for (int y = 100; y < Math.min(png.getHeight(), 500); y++) {
        for (int x = 0; x < png.getWidth(); x++) {
          if ((png.getRGB(x, y) & 0xffffff) == rgb) {
            count++;
          }
        }
      }
      return count;
    }

    /** Pixels that are not (nearly) white in the first chart's area. */
    int nonWhite() {
      int count = 0;
      for (int y = 100; y < Math.min(png.getHeight(), 500); y++) {
        for (int x = 0; x < png.getWidth(); x++) {
          int p = png.getRGB(x, y);
          if ((p >> 16 & 0xff) < 240 || (p >> 8 & 0xff) < 240 || (p & 0xff) < 240) {
            count++;
          }
        }
      }
      return count;
    }
  }

  private static Path report(String name, String... args) {
    Path html = OUT.resolve(name);
    List<String> all =
        new ArrayList<>(List.of("report", "--db", db.toString(), "--html", html.toString()));
    all.addAll(List.of(args));
    Cli.Result r = Cli.tunelab(all.toArray(String[]::new));
    assertTrue(r.code() == 0 || r.code() == 1, r.all());
    assertTrue(r.err().contains("wrote " + html), r.err());
    return html;
  }

  private static Rendered render(Path html, String name) throws Exception {
    Path png = OUT.resolve(name + ".png");
    Files.deleteIfExists(png);
    String url = html.toAbsolutePath().toUri().toString();
    Run shot = chromium("--screenshot=" + png.toAbsolutePath(), "--window-size=1200,900", url);
    Run dump = chromium("--dump-dom", url);
    Matcher check = Pattern.compile("data-tunelab-check=\"([^\"]*)\"").matcher(dump.out());
    Matcher title = Pattern.compile("<title>([^<]*)</title>").matcher(dump.out());
    assertTrue(check.find(), "no check marker in the DOM: " + dump.out());
    assertTrue(title.find(), "no title in the DOM");
    assertTrue(Files.size(png) > 0, "no screenshot: " + shot.err());
    List<String> errors = console(shot.err() + dump.err());
    return new Rendered(
        dump.out(),
        unescape(title.group(1)),
        unescape(check.group(1)),
        errors,
        ImageIO.read(png.toFile()));
  }

  /**
   * Console messages in Chromium's log ({@code INFO:CONSOLE:12] "message", source: …}); the page
   * writes none, so each is a problem. Chromium's own complaints about D-Bus or GPUs are not.
   */
  private static List<String> console(String log) {
    List<String> lines = new ArrayList<>();
    for (String line : log.split("\n")) {
      if (line.contains(":CONSOLE") || line.contains("Uncaught")) {
        lines.add(line);
      }
    }
    return lines;
  }

  private record Run(String out, String err) {}

  private static Run chromium(String... args) throws Exception {
    Path profile = Files.createTempDirectory(dir, "profile");
    List<String> command =
        new ArrayList<>(
            List.of(
                chromium.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + profile,
                "--enable-logging=stderr",
                "--v=0"));
    command.addAll(List.of(args));
    Path out = dir.resolve("chromium.out");
    Path err = dir.resolve("chromium.err");
    Process p =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!p.waitFor(TestTime.seconds(90), TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail("chromium did not finish within 90 s: " + command);
    }
    assertEquals(0, p.exitValue(), "chromium failed: " + Files.readString(err));
    return new Run(
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private static Path chromium() {
    for (String name : List.of("chromium", "chromium-browser")) {
      for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
        Path p = Path.of(d, name);
        if (Files.isExecutable(p)) {
          return p;
        }
      }
    }
    return null;
  }

  private static String unescape(String s) {
    return s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
  }
}
