package io.tunelab.report;

import io.tunelab.stats.Caveats;
import io.tunelab.stats.Outliers;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Flag;
import io.tunelab.store.ReportData.Trial;
import io.tunelab.store.TrialFlag;
import io.tunelab.store.TrialStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * What makes some cells' means less trustworthy, for one metric: outlying repetitions, too few
 * repetitions to judge them, fewer than three repetitions, a coefficient of variation above 5 %.
 *
 * @param measured how many cells have at least one value
 * @param entries by kind in {@link Kind} order, each in cell order
 * @param flagged the line about trials their hosts' health checks flagged, first; empty for none
 * @param readbacks a line per knob that read back other than written, after it
 */
public record Warnings(
    String metric,
    String unit,
    int measured,
    List<Entry> entries,
    List<String> flagged,
    List<String> readbacks) {
  /** How a line about every measured cell of a metric begins. */
  static final String EVERY_CELL = "every measured cell ";

  /** What the line about flagged trials holds, after their count. */
  static final String FLAGGED = " trial(s) flagged: ";

  /** Warnings without health flags. */
  public Warnings(String metric, String unit, int measured, List<Entry> entries) {
    this(metric, unit, measured, entries, List.of(), List.of());
  }

  /** What begins a line about a knob that read back other than written. */
  static final String READ_BACK = ") read back ";

  /** How many entries of one kind the text lists before summing up the rest. */
  public static final int SHOWN_PER_KIND = 10;

  /** The kinds of warning, in the order they are printed. */
  public enum Kind {
    OUTLIER("outlier", "outlying repetitions (Grubbs' test, two-sided, 5% level)", ""),
    TOO_FEW_FOR_OUTLIERS(
        "too_few_for_outliers",
        "too few repetitions to judge outliers",
        "Grubbs' test needs " + Outliers.MIN_N),
    FEW(
        "few_repetitions",
        "fewer than " + Caveats.MIN_N + " repetitions, too few for a significance test",
        ""),
    NOISY("noisy", "coefficient of variation above " + fixed1(100 * Caveats.MAX_CV) + "%", "");

    private final String id;
    private final String heading;
    private final String note;

    Kind(String id, String heading, String note) {
      this.id = id;
      this.heading = heading;
      this.note = note;
    }

    /** The name JSON uses. */
    public String id() {
      return id;
    }

    /** What the text says above the entries. */
    public String heading() {
      return heading;
    }

    /** Why, said after the heading in parentheses; empty when the heading says it all. */
    public String note() {
      return note;
    }
  }

  /**
   * One warning about a cell. {@code rep}, {@code value} and {@code score} describe an outlier;
   * {@code cv} is the cell's coefficient of variation; {@code n} its number of values.
   */
  public record Entry(
      Kind kind, int cell, String label, int n, double cv, int rep, double value, double score) {}

  /**
   * Checks the values of {@code metric} in every cell; {@code label} names a cell for people;
   * {@code about} gives the experiment's {@code on_flag}, for the line about flagged trials, and
   * the knobs that read back other than asked.
   */
  public static Warnings of(
      List<Cell> cells,
      String metric,
      String unit,
      Function<Cell, String> label,
      ReportData.About about) {
    List<Entry> outliers = new ArrayList<>();
    List<Entry> unjudged = new ArrayList<>();
    List<Entry> few = new ArrayList<>();
    List<Entry> noisy = new ArrayList<>();
    int measured = 0;
    if (metric != null) {
      for (Cell cell : cells) {
        List<Trial> counted =
            cell.trials().stream().filter(t -> t.counted() && t.value(metric) != null).toList();
        double[] values = counted.stream().mapToDouble(t -> t.value(metric)).toArray();
        Caveats c = Caveats.of(values);
        if (c.n() > 0) {
          measured++;
        }
        String name = label.apply(cell);
        for (Caveats.Outlier o : c.outliers()) {
          outliers.add(
              new Entry(
                  Kind.OUTLIER,
                  cell.ordinal(),
                  name,
                  c.n(),
                  c.cv(),
                  counted.get(o.position()).rep(),
                  o.value(),
                  o.score()));
        }
        if (c.tooFewForOutliers()) {
          unjudged.add(
              new Entry(
                  Kind.TOO_FEW_FOR_OUTLIERS,
                  cell.ordinal(),
                  name,
                  c.n(),
                  c.cv(),
                  0,
                  Double.NaN,
                  0));
        }
        if (c.tooFew()) {
          few.add(new Entry(Kind.FEW, cell.ordinal(), name, c.n(), c.cv(), 0, Double.NaN, 0));
        }
        if (c.noisy()) {
          noisy.add(new Entry(Kind.NOISY, cell.ordinal(), name, c.n(), c.cv(), 0, Double.NaN, 0));
        }
      }
    }
    List<Entry> all = new ArrayList<>(outliers);
    all.addAll(unjudged);
    all.addAll(few);
    all.addAll(noisy);
    return new Warnings(
        metric,
        unit,
        measured,
        List.copyOf(all),
        flagged(cells, about.onFlag()),
        readbacks(about.readbacks()));
  }

  /**
   * {@code 3 trial(s) flagged: dmesg 2 (client), knob_drift 1 (server); on_flag keep: they are in
   * the statistics}, about the measured trials that ran to the end; empty when none is flagged.
   */
  /**
   * {@code knob block.loop3.read_ahead_kb on local (local) read back 2560 after 1024 was written,
   * in 3 ok trial(s)}: one line per knob and value; the run went on and the trials are in the
   * statistics, measured at the value the kernel held.
   */
  static List<String> readbacks(List<ReportData.Readback> readbacks) {
    List<String> lines = new ArrayList<>();
    for (ReportData.Readback r : readbacks) {
      lines.add(
          "knob "
              + r.knob()
              + " on "
              + r.host()
              + " ("
              + r.role()
              + ") read back "
              + (r.effective() == null ? "nothing" : r.effective())
              + " after "
              + r.requested()
              + " was written, in "
              + r.trials()
              + " ok trial(s): they measured the value read back");
    }
    return lines;
  }

  static List<String> flagged(List<Cell> cells, String onFlag) {
    int trials = 0;
    Map<String, Integer> counts =
        new TreeMap<>(
            Comparator.comparingInt(Warnings::flagOrder).thenComparing(Comparator.naturalOrder()));
    Map<String, Set<String>> where = new HashMap<>();
    for (Cell cell : cells) {
      for (Trial t : cell.trials()) {
        if (t.warmup() || t.status() != TrialStatus.OK || t.flags().isEmpty()) {
          continue;
        }
        trials++;
        Set<String> seen = new HashSet<>();
        for (Flag f : t.flags()) {
          if (seen.add(f.flag())) {
            counts.merge(f.flag(), 1, Integer::sum);
          }
          where
              .computeIfAbsent(f.flag(), k -> new TreeSet<>())
              .addAll(List.of(f.where().split(", ")));
        }
      }
    }
    if (trials == 0) {
      return List.of();
    }
    List<String> parts = new ArrayList<>();
    counts.forEach(
        (flag, n) -> parts.add(flag + " " + n + " (" + String.join(", ", where.get(flag)) + ")"));
    String mode =
        switch (onFlag == null ? "keep" : onFlag) {
          case "exclude" -> "on_flag exclude: they are left out of the statistics";
          case "rerun" -> "on_flag rerun: flagged again when run again, they are in the statistics";
          default -> "on_flag keep: they are in the statistics";
        };
    return List.of(trials + FLAGGED + String.join(", ", parts) + "; " + mode);
  }

  private static int flagOrder(String flag) {
    int at = TrialFlag.NAMES.indexOf(flag);
    return at < 0 ? TrialFlag.NAMES.size() : at;
  }

  /** Whether there is nothing to warn about. */
  public boolean isEmpty() {
    return entries.isEmpty() && flagged.isEmpty() && readbacks.isEmpty();
  }

  /**
   * The warnings for people: per kind a heading line and up to {@link #SHOWN_PER_KIND} entries,
   * indented by {@code indent} and two more spaces.
   */
  public List<String> lines(String indent) {
    List<String> lines = new ArrayList<>();
    flagged.forEach(f -> lines.add(indent + f));
    readbacks.forEach(r -> lines.add(indent + r));
    for (Kind kind : Kind.values()) {
      List<Entry> of = entries.stream().filter(e -> e.kind() == kind).toList();
      if (of.isEmpty()) {
        continue;
      }
      boolean perCount = kind == Kind.FEW || kind == Kind.TOO_FEW_FOR_OUTLIERS;
      if (perCount && of.size() == measured && of.size() > 1) {
        // Usually the matrix's own repeat: one line, not one per cell.
        int least = of.stream().mapToInt(Entry::n).min().orElse(0);
        int most = of.stream().mapToInt(Entry::n).max().orElse(0);
        lines.add(
            indent
                + EVERY_CELL
                + "("
                + of.size()
                + ") has "
                + kind.heading()
                + " (n = "
                + (least == most ? least : least + ".." + most)
                + (kind.note().isEmpty() ? "" : "; " + kind.note())
                + ")");
        continue;
      }
      String count =
          kind == Kind.OUTLIER
              ? of.size() + (of.size() == 1 ? " repetition" : " repetitions")
              : of.size() + (of.size() == 1 ? " cell" : " cells");
      String note = kind.note().isEmpty() ? "" : " (" + kind.note() + ")";
      lines.add(indent + kind.heading() + note + ", " + count + ":");
      for (Entry e : of.subList(0, Math.min(of.size(), SHOWN_PER_KIND))) {
        lines.add(indent + "  " + text(e));
      }
      if (of.size() > SHOWN_PER_KIND) {
        lines.add(
            indent + "  … and " + (of.size() - SHOWN_PER_KIND) + " more (--format json lists all)");
      }
    }
    return lines;
  }

  private String text(Entry e) {
    String cell = "cell " + e.cell() + (e.label().isEmpty() ? "" : " (" + e.label() + ")");
    return switch (e.kind()) {
      case OUTLIER ->
          cell
              + " rep "
              + e.rep()
              + ": "
              + Numbers.fixed(e.value())
              + (unit == null ? "" : " " + unit)
              + ", G = "
              + fixed2(e.score())
              + " (critical "
              + fixed2(Outliers.critical(e.n()))
              + ")";
      case TOO_FEW_FOR_OUTLIERS, FEW -> cell + ": n = " + e.n();
      case NOISY -> cell + ": cv " + fixed1(100 * e.cv()) + "%";
    };
  }

  private static String fixed2(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  private static String fixed1(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }
}
