package io.tunelab.report;

import io.tunelab.TunelabException;
import io.tunelab.matrix.Matrix;
import io.tunelab.stats.Caveats;
import io.tunelab.stats.Change;
import io.tunelab.stats.ChangeInterval;
import io.tunelab.stats.Direction;
import io.tunelab.stats.Interval;
import io.tunelab.stats.MannWhitney;
import io.tunelab.stats.MeanEstimate;
import io.tunelab.stats.PairedRatio;
import io.tunelab.stats.Summary;
import io.tunelab.stats.Verdict;
import io.tunelab.stats.Welch;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Stat;
import io.tunelab.store.RunConditions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Two sets of cells side by side: the same matrix run twice (two kernels), or two values of one
 * axis within one experiment. Rows are matched by the parameters that remain; each gets the %change
 * of its mean with its confidence interval, a test (Welch's t-test, paired by round when both sides
 * ran in the rounds of one experiment, or Mann–Whitney's) and a {@link Verdict}, and the whole a
 * TOTAL and a geomean row with their intervals and the list of what else differs between the sides.
 *
 * @param base the left side, the reference
 * @param next the right side, compared with the base
 * @param labelAxes the axes that name a row, as written
 * @param rows matched rows measured on both sides, in the base's cell order
 * @param lines the table: {@code rows} and, where they were, the {@link Gap}s
 * @param total the sums of each side's means and their %change
 * @param geomean the geometric means of each side's means and of the ratios, as a %change
 * @param paired some rows were tested by round: both sides ran in the rounds of one experiment
 * @param differences what differs between the sides besides the compared axis, kernel command lines
 *     apart ({@link #cmdlineHosts()})
 * @param onlyInBase labels of base cells with no match on the other side
 * @param onlyInNew labels of new cells with no match in the base
 * @param unmeasured labels of matched cells without a value on one side or both, each followed by
 *     which side lacks it
 */
public record Comparison(
    Side base,
    Side next,
    String job,
    String metric,
    String unit,
    Direction direction,
    Options options,
    AxisNames axes,
    List<String> labelAxes,
    List<Row> rows,
    List<Line> lines,
    Aggregate total,
    Aggregate geomean,
    boolean paired,
    List<Difference> differences,
    List<String> onlyInBase,
    List<String> onlyInNew,
    List<String> unmeasured,
    Warnings baseWarnings,
    Warnings newWarnings) {

  /** The marker of a significant change. */
  public static final String SIGNIFICANT = "*";

  /** The marker of a change the test cannot tell from noise. */
  public static final String NOT_SIGNIFICANT = "~";

  /** The order in which verdicts are counted and listed: what needs a look first. */
  public static final List<Verdict> VERDICT_ORDER =
      List.of(Verdict.WORSE, Verdict.BETTER, Verdict.CHANGED, Verdict.SAME, Verdict.UNTESTED);

  /** The test that decides whether a row changed ({@code --test}). */
  public enum Test {
    /** Welch's t-test of the means; paired by round when the sides ran in rounds. */
    WELCH("welch", "Welch's t-test"),
    /** The Mann–Whitney U test of the values' ranks, for skewed noise. */
    MANN_WHITNEY("mann-whitney", "Mann-Whitney U test");

    private final String text;
    private final String title;

    Test(String text, String title) {
      this.text = text;
      this.title = title;
    }

    /** {@code welch} or {@code mann-whitney}, as {@code --test} takes it. */
    public String text() {
      return text;
    }

    /** The test's name in a legend. */
    public String title() {
      return title;
    }

    /** The test {@code --test} names; an unknown name is bad input. */
    public static Test named(String name) {
      for (Test t : values()) {
        if (t.text.equals(name.toLowerCase(Locale.ROOT))) {
          return t;
        }
      }
      throw new TunelabException(
          TunelabException.BAD_INPUT, "unknown test " + name + " (expected welch or mann-whitney)");
    }
  }

  /**
   * How to decide.
   *
   * @param alpha the significance level of the two-sided test (0.05)
   * @param minChange the smallest |%change| a verdict calls a change, in percent (2): smaller
   *     differences are {@code same} however significant
   * @param level the confidence level of the intervals (0.95)
   * @param test the test of each row
   */
  public record Options(double alpha, double minChange, double level, Test test) {
    /** The default of {@code --min-change}, in percent. */
    public static final double MIN_CHANGE = 2;

    /** alpha 0.05, min-change 2 %, 95 % intervals, Welch's t-test. */
    public static final Options DEFAULT = new Options(0.05, MIN_CHANGE, 0.95);

    /** With Welch's t-test. */
    public Options(double alpha, double minChange, double level) {
      this(alpha, minChange, level, Test.WELCH);
    }

    public Options {
      Objects.requireNonNull(test, "test");
      if (!(alpha > 0 && alpha < 1)) {
        throw new TunelabException(
            TunelabException.BAD_INPUT, "--alpha must lie between 0 and 1, not " + alpha);
      }
      if (!(minChange >= 0) || Double.isInfinite(minChange)) {
        throw new TunelabException(
            TunelabException.BAD_INPUT, "--min-change must be a percentage of 0 or more");
      }
    }
  }

  /**
   * One side: what people call it ({@code experiment 3 readahead (finished)} or {@code
   * scheduler=none}), a detail line (hosts and kernels, or the experiment), and the kernel command
   * lines each host booted with over the side's trials, by host (empty when not recorded).
   */
  public record Side(
      String name, String detail, ReportData data, Map<String, List<String>> cmdlines) {}

  /** A line of the table: a compared {@link Row} or a {@link Gap}. */
  public sealed interface Line permits Row, Gap {
    /** The other axes' values. */
    String label();

    /** The other axes' values by axis as shown. */
    Map<String, String> params();
  }

  /**
   * One thing that differs between the sides: {@code read_ahead_kb 128 → 256}.
   *
   * @param kind {@code kernel} (subject a role or host), {@code knob} (subject the knob as the
   *     matrix writes it, or role and resolved name), {@code host} (the host playing a role) or
   *     {@code fact} (subject the role and the fact's key)
   * @param base the base side's value, {@code (none)} when it has none
   * @param next the new side's value, {@code (none)} when it has none
   * @param rows in how many compared rows it differs so
   * @param of how many compared rows there are
   */
  public record Difference(
      String kind, String subject, String base, String next, int rows, int of) {
    /** {@code knob local.block.${dev}.read_ahead_kb 128 → 256}, and in how many rows if not all. */
    public String text() {
      return kind
          + " "
          + subject
          + " "
          + base
          + " → "
          + next
          + (rows == of ? "" : " (" + rows + " of " + of + " rows)");
    }
  }

  /**
   * A matched pair of cells of which one side or both have no value of the metric (no ok trial):
   * shown with a dash, left out of TOTAL, geomean and the verdicts.
   *
   * @param base the base's statistics, null when it has none
   * @param next the new side's statistics, null when it has none
   */
  public record Gap(
      String label, Map<String, String> params, Cell baseCell, Cell newCell, Stat base, Stat next)
      implements Line {}

  /**
   * One matched row.
   *
   * @param change the %change of the mean, NaN when the base mean is 0
   * @param interval the confidence interval of the %change: of the log ratio of the means, or of
   *     the rounds' paired ratios when {@code paired} is there; unknown ends are NaN
   * @param baseEstimate the base's mean with the variance the test gives it (a cell that stopped
   *     after a pilot: see {@link MeanEstimate#twoStage})
   * @param nextEstimate the same of the new side
   * @param welch Welch's t-test, null with fewer than two values on a side
   * @param paired the paired test of the rounds both cells ran, null when they were not paired
   * @param p the p-value of the row's test ({@link Options#test()}, paired when {@code paired} is
   *     there), NaN without one
   * @param significant both sides have n >= 3 and the test's p is below alpha
   * @param boots the per-boot levels when each side ran on two boots or more: then the interval,
   *     the estimates and the test come from the per-boot means; null when trials are the unit
   */
  public record Row(
      String label,
      Map<String, String> params,
      Cell baseCell,
      Cell newCell,
      Stat base,
      Stat next,
      double change,
      Interval interval,
      MeanEstimate baseEstimate,
      MeanEstimate nextEstimate,
      Welch welch,
      PairedRatio paired,
      double p,
      boolean significant,
      Verdict verdict,
      BootLevels boots)
      implements Line {

    /** {@code *} or {@code ~}. */
    public String marker() {
      return significant ? SIGNIFICANT : NOT_SIGNIFICANT;
    }
  }

  /**
   * A summary row: a value per side, the %change between them and its confidence interval (by the
   * delta method over every row's means; NaN ends when unknown).
   */
  public record Aggregate(double base, double next, double change, Interval interval) {}

  /** Compares two experiments cell by cell, without what their hosts ran and had. */
  public static Comparison experiments(ReportData base, ReportData next, String metric, Options o) {
    return experiments(base, RunConditions.NONE, next, RunConditions.NONE, metric, o);
  }

  /**
   * Compares two experiments cell by cell, matched by all their parameters; {@code baseRan} and
   * {@code newRan} say what their hosts ran and had, for the list of differences.
   */
  public static Comparison experiments(
      ReportData base,
      RunConditions baseRan,
      ReportData next,
      RunConditions newRan,
      String metric,
      Options o) {
    if (!Set.copyOf(base.paramNames()).equals(Set.copyOf(next.paramNames()))) {
      AxisNames a = new AxisNames(base.paramNames());
      AxisNames z = new AxisNames(next.paramNames());
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "experiments "
              + base.experimentId()
              + " and "
              + next.experimentId()
              + " have no cells in common: their axes differ ("
              + String.join(", ", base.paramNames().stream().map(a::shown).toList())
              + " vs "
              + String.join(", ", next.paramNames().stream().map(z::shown).toList())
              + ")");
    }
    return build(
        new Side(experimentName(base), hostLine(base), base, cmdlines(base.cells())),
        new Side(experimentName(next), hostLine(next), next, cmdlines(next.cells())),
        base.cells(),
        next.cells(),
        null,
        baseRan,
        newRan,
        metric,
        o);
  }

  /**
   * Compares two values of one axis given as {@code NAME=BASE,NEW} ({@code --axis}); see {@link
   * AxisPair} for the names it takes and what it refuses.
   */
  public static Comparison axis(ReportData data, String spec, String metric, Options o) {
    return axis(data, RunConditions.NONE, spec, metric, o);
  }

  /** As {@link #axis(ReportData, String, String, Options)}, with what the hosts ran and had. */
  public static Comparison axis(
      ReportData data, RunConditions ran, String spec, String metric, Options o) {
    return axis(data, ran, AxisPair.parse(data, spec), metric, o);
  }

  /**
   * Compares the cells of one experiment where {@code axis} is {@code baseValue} with those where
   * it is {@code newValue}, matched by their other parameters.
   */
  public static Comparison axis(
      ReportData data, String axis, String baseValue, String newValue, String metric, Options o) {
    return axis(data, RunConditions.NONE, AxisPair.of(data, axis, baseValue, newValue), metric, o);
  }

  private static Comparison axis(
      ReportData data, RunConditions ran, AxisPair pair, String metric, Options o) {
    AxisNames axes = new AxisNames(data.paramNames());
    String name = pair.axis();
    List<Cell> left =
        data.cells().stream().filter(c -> pair.base().equals(c.params().get(name))).toList();
    List<Cell> right =
        data.cells().stream().filter(c -> pair.next().equals(c.params().get(name))).toList();
    String detail = experimentName(data);
    return build(
        new Side(axes.shown(name) + "=" + pair.base(), detail, data, cmdlines(left)),
        new Side(axes.shown(name) + "=" + pair.next(), detail, data, cmdlines(right)),
        left,
        right,
        name,
        ran,
        ran,
        metric,
        o);
  }

  private static Comparison build(
      Side base,
      Side next,
      List<Cell> left,
      List<Cell> right,
      String axis,
      RunConditions baseRan,
      RunConditions newRan,
      String metric,
      Options o) {
    ReportData data = base.data();
    AxisNames axes = new AxisNames(data.paramNames());
    List<String> labelAxes = new ArrayList<>(data.paramNames());
    labelAxes.remove(axis);
    Map<Map<String, String>, Cell> newByKey = new LinkedHashMap<>();
    for (Cell c : right) {
      newByKey.put(key(c, axis), c);
    }
    Direction direction = Direction.of(metric);
    boolean paired =
        base.data() == next.data()
            && Matrix.Order.ROUNDS.text().equals(data.about().order())
            && o.test() == Test.WELCH;
    List<Row> rows = new ArrayList<>();
    List<Line> lines = new ArrayList<>();
    List<String> onlyInBase = new ArrayList<>();
    List<String> unmeasured = new ArrayList<>();
    List<Cell> baseMatched = new ArrayList<>();
    List<Cell> newMatched = new ArrayList<>();
    for (Cell b : left) {
      Cell n = newByKey.remove(key(b, axis));
      String label = label(axes, b.params(), labelAxes);
      if (n == null) {
        onlyInBase.add(label);
        continue;
      }
      Stat sb = b.stats().get(metric);
      Stat sn = n.stats().get(metric);
      if (sb == null || sn == null) {
        unmeasured.add(
            label + " (" + (sb == null ? sn == null ? "neither side" : "base" : "new") + ")");
        lines.add(new Gap(label, shownParams(axes, b.params(), labelAxes), b, n, sb, sn));
        continue;
      }
      baseMatched.add(b);
      newMatched.add(n);
      Row row =
          row(
              label,
              shownParams(axes, b.params(), labelAxes),
              new Pair(b, n, sb, sn),
              base.data().repetitions(),
              next.data().repetitions(),
              metric,
              paired,
              direction,
              o);
      rows.add(row);
      lines.add(row);
    }
    List<String> onlyInNew = new ArrayList<>();
    for (Cell n : newByKey.values()) {
      onlyInNew.add(label(axes, n.params(), labelAxes));
    }
    if (rows.isEmpty()) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          (baseMatched.isEmpty() && unmeasured.isEmpty()
                  ? base.name() + " and " + next.name() + " have no cells in common"
                  : "no cell of "
                      + base.name()
                      + " and "
                      + next.name()
                      + " has "
                      + metric
                      + " measured on both sides")
              + " (matched by their parameters"
              + (axis == null ? "" : " other than " + axes.shown(axis))
              + ")");
    }
    String unit = data.unit(metric);
    return new Comparison(
        base,
        next,
        data.job(),
        metric,
        unit,
        direction,
        o,
        axes,
        List.copyOf(labelAxes),
        List.copyOf(rows),
        List.copyOf(lines),
        total(rows, o.level()),
        geomean(rows, o.level()),
        rows.stream().anyMatch(r -> r.paired() != null),
        Differences.of(base, next, baseRan, newRan, rows, axis),
        List.copyOf(onlyInBase),
        List.copyOf(onlyInNew),
        List.copyOf(unmeasured),
        Warnings.of(
            baseMatched,
            metric,
            unit,
            c -> label(axes, c.params(), labelAxes),
            base.data().about()),
        Warnings.of(
            newMatched,
            metric,
            unit,
            c -> label(axes, c.params(), labelAxes),
            next.data().about()));
  }

  /** Two matched cells and their statistics of the metric. */
  private record Pair(Cell b, Cell n, Stat sb, Stat sn) {}

  private static Row row(
      String label,
      Map<String, String> params,
      Pair pair,
      ReportData.Repetitions baseRule,
      ReportData.Repetitions newRule,
      String metric,
      boolean paired,
      Direction direction,
      Options o) {
    Stat sb = pair.sb();
    Stat sn = pair.sn();
    double change = Change.percent(sb.mean(), sn.mean());
    BootLevels boots = BootLevels.of(pair.b(), pair.n(), metric);
    MeanEstimate eb =
        boots != null ? boots.base().estimate() : estimate(pair.b(), sb, baseRule, metric);
    MeanEstimate en =
        boots != null ? boots.next().estimate() : estimate(pair.n(), sn, newRule, metric);
    Welch welch =
        (boots != null || Welch.applicable(sb.summary(), sn.summary())) && eb.known() && en.known()
            ? Welch.test(eb, en, o.level())
            : null;
    // Boots as the unit: pairing trials by round would count each boot's trials as independent.
    PairedRatio byRound =
        paired && boots == null ? byRound(pair.b(), pair.n(), metric, o.level()) : null;
    Interval interval;
    double p;
    if (byRound != null) {
      interval = byRound.interval();
      p = byRound.p();
    } else {
      interval = ChangeInterval.of(eb, en, o.level());
      p =
          o.test() == Test.MANN_WHITNEY
              ? MannWhitney.p(
                  boots == null ? pair.b().values(metric) : values(boots.base()),
                  boots == null ? pair.n().values(metric) : values(boots.next()))
              : welch == null ? Double.NaN : welch.p();
    }
    boolean untested = sb.n() < Caveats.MIN_N || sn.n() < Caveats.MIN_N;
    boolean significant = !Double.isNaN(p) && !untested && p < o.alpha();
    Verdict verdict = Verdict.of(untested, significant, change, o.minChange(), direction);
    return new Row(
        label,
        params,
        pair.b(),
        pair.n(),
        sb,
        sn,
        change,
        interval,
        eb,
        en,
        welch,
        byRound,
        p,
        significant,
        verdict,
        boots);
  }

  private static double[] values(BootLevels.Level l) {
    return l.means().stream().mapToDouble(Double::doubleValue).toArray();
  }

  /**
   * A side's mean and the variance its test uses: the classic one, or for a cell of an adaptive
   * experiment the two-stage estimate over the pilot the rule judged.
   */
  private static MeanEstimate estimate(
      Cell c, Stat s, ReportData.Repetitions repetitions, String metric) {
    if (repetitions == null || !repetitions.rule().adaptive()) {
      return MeanEstimate.of(s.summary());
    }
    double[] values = c.values(metric);
    if (values.length < 2 || values.length != s.n()) {
      return MeanEstimate.of(s.summary());
    }
    return MeanEstimate.twoStage(s.summary(), Summary.of(repetitions.rule().pilot(values)));
  }

  /** The paired test over the rounds both cells have a counted value of; null below two. */
  private static PairedRatio byRound(Cell b, Cell n, String metric, double level) {
    Map<Integer, Double> base = new HashMap<>();
    for (ReportData.Trial t : b.trials()) {
      if (t.counted() && t.value(metric) != null) {
        base.put(t.rep(), t.value(metric));
      }
    }
    double[] x = new double[base.size()];
    double[] y = new double[base.size()];
    int k = 0;
    for (ReportData.Trial t : n.trials()) {
      Double v = base.get(t.rep());
      if (t.counted() && t.value(metric) != null && v != null) {
        x[k] = v;
        y[k++] = t.value(metric);
      }
    }
    return PairedRatio.of(Arrays.copyOf(x, k), Arrays.copyOf(y, k), level);
  }

  private static Aggregate total(List<Row> rows, double level) {
    double b = 0;
    double n = 0;
    for (Row r : rows) {
      b += r.base().mean();
      n += r.next().mean();
    }
    return new Aggregate(b, n, Change.percent(b, n), ChangeInterval.total(parts(rows), level));
  }

  private static List<ChangeInterval.Part> parts(List<Row> rows) {
    return rows.stream()
        .map(r -> new ChangeInterval.Part(r.baseEstimate(), r.nextEstimate(), r.paired()))
        .toList();
  }

  private static Aggregate geomean(List<Row> rows, double level) {
    List<Double> ratios = new ArrayList<>();
    List<Double> bases = new ArrayList<>();
    List<Double> news = new ArrayList<>();
    for (Row r : rows) {
      bases.add(r.base().mean());
      news.add(r.next().mean());
      ratios.add(r.base().mean() == 0 ? Double.NaN : r.next().mean() / r.base().mean());
    }
    double ratio = Change.geometricMean(ratios);
    return new Aggregate(
        Change.geometricMean(bases),
        Change.geometricMean(news),
        100 * (ratio - 1),
        ChangeInterval.geomean(parts(rows), level));
  }

  // Matching by axis names as written (local.block.${dev}.read_ahead_kb), sorted, so that the
  // loop device of the day and the order of the axes do not matter.
  private static Map<String, String> key(Cell c, String axis) {
    Map<String, String> key = new TreeMap<>(c.params());
    if (axis != null) {
      key.remove(axis);
    }
    return key;
  }

  private static String label(AxisNames axes, Map<String, String> params, List<String> labelAxes) {
    if (labelAxes.isEmpty()) {
      return "(all)";
    }
    return axes.label(params, labelAxes);
  }

  private static Map<String, String> shownParams(
      AxisNames axes, Map<String, String> params, List<String> labelAxes) {
    Map<String, String> shown = new LinkedHashMap<>();
    for (String a : labelAxes) {
      shown.put(axes.shown(a), params.getOrDefault(a, "-"));
    }
    return shown;
  }

  private static String experimentName(ReportData d) {
    return String.format(
        Locale.ROOT, "experiment %d %s (%s)", d.experimentId(), d.name(), d.status().text());
  }

  /** The distinct command lines per host over the trials of {@code cells}, both sorted. */
  private static Map<String, List<String>> cmdlines(List<Cell> cells) {
    Map<String, Set<String>> byHost = new TreeMap<>();
    for (Cell c : cells) {
      for (ReportData.Trial t : c.trials()) {
        for (ReportData.Boot b : t.boots()) {
          byHost.computeIfAbsent(b.host(), h -> new TreeSet<>()).add(b.cmdline());
        }
      }
    }
    Map<String, List<String>> cmdlines = new LinkedHashMap<>();
    byHost.forEach((host, lines) -> cmdlines.put(host, List.copyOf(lines)));
    return cmdlines;
  }

  /** The hosts whose command lines differ between the two sides, sorted. */
  public List<String> cmdlineHosts() {
    Set<String> hosts = new TreeSet<>(base.cmdlines().keySet());
    hosts.addAll(next.cmdlines().keySet());
    return hosts.stream()
        .filter(h -> !Objects.equals(base.cmdlines().get(h), next.cmdlines().get(h)))
        .toList();
  }

  /** Whether some row's interval and test come from per-boot means: boots are its unit. */
  public boolean bootsAsUnit() {
    return rows.stream().anyMatch(r -> r.boots() != null);
  }

  /** How many lines of the table have no value on a side: shown with a dash, not summed. */
  public int gaps() {
    return lines.size() - rows.size();
  }

  private static String hostLine(ReportData d) {
    List<String> hosts = new ArrayList<>();
    for (ReportData.Host h : d.hosts()) {
      hosts.add(
          h.role() + "=" + h.host() + (h.kernelRelease() == null ? "" : " " + h.kernelRelease()));
    }
    return String.join(", ", hosts);
  }

  /** How many rows got each verdict, in the order worse, better, changed, same, n<3. */
  public Map<Verdict, Integer> verdicts() {
    Map<Verdict, Integer> counts = new LinkedHashMap<>();
    for (Verdict v : VERDICT_ORDER) {
      counts.put(v, 0);
    }
    for (Row r : rows) {
      counts.merge(r.verdict(), 1, Integer::sum);
    }
    return counts;
  }
}
