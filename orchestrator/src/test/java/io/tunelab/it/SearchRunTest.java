package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import io.tunelab.testing.SqliteQuery;
import io.tunelab.testing.TestTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A race on a real loop disk whose workload ({@code bench/surface}) reads the knobs the kernel
 * holds and prints a figure with one optimum inside the space (read_ahead_kb 1024, max_sectors_kb
 * 256), a weak knob (the scheduler) and an inert one (nr_requests), 2 % noise.
 */
@Integration
class SearchRunTest {
  private static final List<String> KNOBS =
      List.of("read_ahead_kb", "max_sectors_kb", "scheduler", "nr_requests");

  @RegisterExtension final LoopDiskExtension disks = new LoopDiskExtension(16);
  @TempDir Path dir;
  LoopDisk disk;
  List<String> before;

  @BeforeEach
  void disk() throws Exception {
    disk = disks.disk();
    before = knobs();
  }

  private List<String> knobs() throws Exception {
    List<String> values = new java.util.ArrayList<>();
    for (String k : KNOBS) {
      values.add(disk.queue(k));
    }
    return values;
  }

  private Path matrix(int budget, int confirm) throws Exception {
    Path m = dir.resolve("race.yaml");
    Files.writeString(
        m,
        """
        name: race
        search: {objective: maximize mib_per_s, budget: BUDGET, confirm: CONFIRM}
        seed: 5
        matrix:
          local.block.DEV.read_ahead_kb: [128, 256, 512, 1024, 2048, 4096]
          local.block.DEV.max_sectors_kb: [64, 128, 256, 512, 1024]
          local.block.DEV.scheduler: [none, mq-deadline]
          local.block.DEV.nr_requests: [16, 32, 64, 128]
        workload:
          command: SURFACE DEV --round ${rep} --seed 1 --noise 2
          parser: metrics
        """
            .replace("BUDGET", Integer.toString(budget))
            .replace("CONFIRM", Integer.toString(confirm))
            .replace("SURFACE", Lab.root().resolve("bench/surface").toString())
            .replace("DEV", disk.dev));
    return m;
  }

  /** The scheduler in a cell's label. */
  private static String scheduler(String label) {
    Matcher m = Pattern.compile("scheduler=([^/]+)").matcher(label);
    assertTrue(m.find(), label);
    return m.group(1);
  }

  private static String winner(String out) {
    Matcher m = Pattern.compile("search: winner cell \\d+ \\(([^)]*)\\)").matcher(out);
    assertTrue(m.find(), out);
    return m.group(1);
  }

  @Test
  void aRaceFindsTheStrongKnobsBestValuesAndItsConfirmationBeatsTheDisksOwnSettings()
      throws Exception {
    Path db = dir.resolve("race.db");
    Cli.Result r = Cli.tunelab("run", matrix(150, 5).toString(), "--db", db.toString());

    assertEquals(0, r.code(), r.all());
    String won = winner(r.all());
    assertTrue(won.contains("read_ahead_kb=1024/max_sectors_kb=256/"), won);
    assertTrue(
        r.all().matches("(?s).*against default: \\+[0-9.]+% .* mib_per_s, better.*"), r.all());
    assertEquals(before, knobs(), "every knob is back");
    Cli.Result effects = Cli.tunelab("effects", "--db", db.toString());
    assertEquals(0, effects.code(), effects.all());
    List<String> ranked =
        effects.out().lines().skip(3).limit(2).map(l -> l.split(" +")[0]).sorted().toList();
    assertEquals(List.of("max_sectors_kb", "read_ahead_kb"), ranked, effects.out());
    // The winner as files to deploy: a udev rule for the disk, a tuned profile.
    Cli.Result udev = Cli.tunelab("settings", "--format", "udev", "--db", db.toString());
    assertEquals(0, udev.code(), udev.all());
    assertTrue(
        udev.out()
            .contains(
                "KERNEL==\""
                    + disk.dev
                    + "\", ATTR{queue/scheduler}=\"none\"".replace("none", scheduler(won))),
        udev.out());
    assertTrue(udev.out().contains("ATTR{queue/read_ahead_kb}=\"1024\""), udev.out());
    Cli.Result tuned = Cli.tunelab("settings", "--format", "tuned", "--db", db.toString());
    assertEquals(0, tuned.code(), tuned.all());
    assertTrue(
        tuned.out().contains("/sys/block/" + disk.dev + "/queue/max_sectors_kb=256\n"),
        tuned.out());
    assertEquals(
        List.of(List.of("1")),
        SqliteQuery.rows(
            db,
            "select count(*) from search_rounds r join cells c on c.id = r.cell_id"
                + " where r.state = 'winner' and '(' || c.label || ')' = '(WON)'"
                    .replace("WON", won)));
    assertTrue(
        SqliteQuery.rows(
                    db,
                    "select reason from search_rounds where state = 'eliminated'"
                        + " and reason like 'worse than cell % over rounds %, p %'")
                .size()
            > 5,
        "eliminations keep their reasons");
    assertTheReportAnswers(db, won);
    List<List<String>> counts =
        SqliteQuery.rows(
            db,
            "select count(*), count(distinct cell_id || '/' || rep), sum(status = 'ok')"
                + " from trials");
    int trials = Integer.parseInt(counts.get(0).get(0));
    assertTrue(trials <= 150 && trials > 20, counts.toString());
    assertEquals(counts.get(0).get(0), counts.get(0).get(1), "no cell ran twice in a round");
    assertEquals(
        List.of(List.of("5", "5")),
        SqliteQuery.rows(
            db,
            "select sum(c.label = 'default'), sum(c.label != 'default')"
                + " from trials t join cells c on c.id = t.cell_id"
                + " where t.seq > (select max(seq) - 10 from trials)"));
  }

  /**
   * The report of the race: the winner and its confirmation above the cells, the best so far, the
   * eliminated candidates with their reasons, the strong knobs first among the axes; its HTML page
   * charts the best so far.
   */
  private void assertTheReportAnswers(Path db, String won) throws Exception {
    Cli.Result report = Cli.tunelab("report", "--db", db.toString());
    assertEquals(0, report.code(), report.all());
    String out = report.out();
    assertTrue(out.contains("\nwinner: cell "), out);
    assertTrue(out.contains(" (" + won + ")\n"), out);
    assertTrue(
        out.matches(
            "(?s).*\nconfirmation: cell \\d+ \\(5 trials\\) against default \\(5\\): \\+.*better.*"),
        out);
    assertTrue(out.indexOf("\nwinner: ") < out.indexOf("t1.."), "the answer comes first: " + out);
    assertTrue(out.contains("\nbest so far against trials spent"), out);
    assertTrue(
        Pattern.compile("(?m)^ +\\d+ +\\d+ +\\d+ +[0-9.]+ +\\d+ +read_ahead_kb=")
            .matcher(out)
            .find(),
        out);
    assertTrue(
        out.matches(
            "(?s).*\n  after round \\d+: cell \\d+ \\([^)]*\\): worse than cell \\d+ over rounds .*"),
        out);
    List<String> axes =
        out.substring(out.indexOf("\nwhich axes mattered:"))
            .lines()
            .skip(3)
            .limit(2)
            .map(l -> l.strip().split(" +")[0])
            .sorted()
            .toList();
    assertEquals(List.of("max_sectors_kb", "read_ahead_kb"), axes, out);
    Path page = dir.resolve("race.html");
    Cli.Result html = Cli.tunelab("report", "--html", page.toString(), "--db", db.toString());
    assertEquals(0, html.code(), html.all());
    String text = Files.readString(page);
    assertTrue(text.contains("<svg class=\"tunelab-progress\""), text);
    assertTrue(text.contains("<path class=\"best\" d=\"M"), text);
  }

  /**
   * A screen of the four knobs at two levels each, where the strong two move from a poor value to
   * their best: a full factorial replicated four times in 64 trials; effects ranks the strong two
   * first and the inert one's effect interval spans 0.
   */
  @Test
  void aScreenRanksTheTwoStrongKnobsFirstWithinSixtyFourTrials() throws Exception {
    Path m = dir.resolve("screen.yaml");
    Files.writeString(
        m,
        """
        name: screen
        search: {objective: maximize mib_per_s, method: screen, budget: 64, confirm: 0}
        seed: 5
        matrix:
          local.block.DEV.read_ahead_kb: [128, 1024]
          local.block.DEV.max_sectors_kb: [64, 256]
          local.block.DEV.scheduler: [none, mq-deadline]
          local.block.DEV.nr_requests: [16, 128]
        workload:
          command: SURFACE DEV --round ${rep} --seed 1 --noise 2
          parser: metrics
        """
            .replace("SURFACE", Lab.root().resolve("bench/surface").toString())
            .replace("DEV", disk.dev));
    Path db = dir.resolve("screen.db");

    Cli.Result r = Cli.tunelab("run", m.toString(), "--db", db.toString());

    assertEquals(0, r.code(), r.all());
    assertEquals(before, knobs(), "every knob is back");
    assertEquals(
        List.of(List.of("64", "16")),
        SqliteQuery.rows(db, "select count(*), count(distinct cell_id) from trials"));
    Cli.Result effects = Cli.tunelab("effects", "--db", db.toString());
    assertEquals(0, effects.code(), effects.all());
    List<String> ranked =
        effects.out().lines().skip(3).limit(2).map(l -> l.split(" +")[0]).sorted().toList();
    assertEquals(List.of("max_sectors_kb", "read_ahead_kb"), ranked, effects.out());
    Matcher inert =
        Pattern.compile("nr_requests: 128 - 16 +\\S+ +\\[(\\S+), (\\S+)\\]").matcher(effects.out());
    assertTrue(inert.find(), effects.out());
    assertTrue(
        Double.parseDouble(inert.group(1)) < 0 && Double.parseDouble(inert.group(2)) > 0,
        "the inert knob's interval spans 0: " + effects.out());
  }

  /** A search whose every trial failed: its report shows the cells and says why no answer. */
  @Test
  void theReportOfASearchThatMeasuredNothingShowsItsCells() throws Exception {
    Path m = dir.resolve("failing.yaml");
    Files.writeString(
        m,
        """
        name: failing
        search: {objective: maximize mib_per_s, budget: 8, confirm: 1}
        matrix:
          x: [1, 2, 3]
        workload:
          command: "false"
          parser: metrics
        """);
    Path db = dir.resolve("failing.db");
    Cli.tunelab("run", m.toString(), "--db", db.toString());

    Cli.Result report = Cli.tunelab("report", "--db", db.toString());

    assertEquals(0, report.code(), report.all());
    assertTrue(report.out().contains("\nfailed trials:\n"), report.out());
    assertTrue(
        report.err().contains("no search section yet: experiment 1 (failing) has no metric"),
        report.err());
  }

  @Test
  void aRaceKilledMidRoundAndResumedEndsWithTheSameWinnerAndRunsNoTrialTwice() throws Exception {
    Path whole = dir.resolve("whole.db");
    Cli.Result uninterrupted =
        Cli.tunelab("run", matrix(60, 3).toString(), "--db", whole.toString());
    assertEquals(0, uninterrupted.code(), uninterrupted.all());

    Path db = dir.resolve("killed.db");
    Process p = Controller.run(matrix(60, 3), db, dir.resolve("out.txt"));
    assertTrue(Controller.awaitRunning(db, 30), "trial 30 never ran");
    p.destroyForcibly();
    assertTrue(p.waitFor(TestTime.seconds(30), TimeUnit.SECONDS));
    Cli.Result resumed = Cli.tunelab("resume", "1", "--db", db.toString());

    assertEquals(0, resumed.code(), resumed.all());
    assertEquals(winner(uninterrupted.all()), winner(resumed.all()));
    String trials =
        "select c.ordinal, t.rep, t.status from trials t join cells c on c.id = t.cell_id order by t.seq";
    assertEquals(SqliteQuery.rows(whole, trials), SqliteQuery.rows(db, trials));
    assertEquals(before, knobs(), "every knob is back");
  }
}
