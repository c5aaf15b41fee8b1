package io.tunelab.report;

import io.tunelab.report.Comparison.Aggregate;
import io.tunelab.report.Comparison.Row;
import io.tunelab.report.Table.Block;
import io.tunelab.report.Table.Measure;
import io.tunelab.report.Table.Text;
import io.tunelab.report.Table.Value;
import io.tunelab.stats.Interval;
import io.tunelab.store.ReportData.Stat;
import java.util.ArrayList;
import java.util.List;

/**
 * CSV for spreadsheets, pandas and R: the report table flattened (block axes as leading columns, a
 * mean-with-spread as two columns), or one line per compared row.
 */
final class CsvOutput {
  private CsvOutput() {}

  static String report(Report r) {
    StringBuilder out = new StringBuilder();
    out.append(Csv.line(header(r.table())));
    for (Block block : r.table().blocks()) {
      for (List<Value> row : block.rows()) {
        List<String> fields = new ArrayList<>(block.key());
        for (Value v : row) {
          fields.addAll(fields(v));
        }
        out.append(Csv.line(fields));
      }
    }
    return out.toString();
  }

  /** The flat column names: block axes, then every column, a measure column twice. */
  static List<String> header(Table t) {
    List<String> names = new ArrayList<>(t.keyColumns());
    for (int i = 0; i < t.columns().size(); i++) {
      String name = t.columns().get(i).flatName();
      names.add(name);
      if (isMeasure(t, i)) {
        names.add(name + " std");
      }
    }
    return unique(names);
  }

  /** Whether column {@code i} holds means with spread (a pivot column). */
  static boolean isMeasure(Table t, int i) {
    for (Block b : t.blocks()) {
      for (List<Value> row : b.rows()) {
        if (row.get(i) instanceof Measure) {
          return true;
        }
      }
    }
    return false;
  }

  private static List<String> fields(Value v) {
    if (v instanceof Text t) {
      return List.of(t.text());
    }
    if (v instanceof Table.Number n) {
      return List.of(Numbers.exact(n.value()));
    }
    if (v instanceof Measure m) {
      return List.of(Numbers.exact(m.mean()), Numbers.exact(m.std()));
    }
    return List.of("");
  }

  private static void levels(List<String> f, BootLevels b) {
    if (b == null) {
      f.addAll(List.of("", "", "", "", "", "", ""));
      return;
    }
    for (BootLevels.Level l : List.of(b.base(), b.next())) {
      f.add(Integer.toString(l.boots()));
      f.add(Numbers.exact(l.between()));
      f.add(Numbers.exact(l.within()));
    }
    f.add(b.advice().key());
  }

  static String comparison(Comparison c) {
    StringBuilder out = new StringBuilder();
    List<String> header = new ArrayList<>(List.of("label"));
    List<String> params = c.labelAxes().stream().map(c.axes()::shown).toList();
    header.addAll(params);
    header.addAll(
        List.of(
            "base_mean",
            "base_stddev_pop",
            "base_stddev_samp",
            "base_n",
            "new_mean",
            "new_stddev_pop",
            "new_stddev_samp",
            "new_n",
            "change_pct",
            "change_ci_low_pct",
            "change_ci_high_pct",
            "marker",
            "p",
            "t",
            "df",
            "verdict"));
    boolean boots = c.bootsAsUnit();
    if (boots) {
      header.addAll(
          List.of(
              "base_boots",
              "base_between_boot_sd",
              "base_within_boot_sd",
              "new_boots",
              "new_between_boot_sd",
              "new_within_boot_sd",
              "more"));
    }
    out.append(Csv.line(unique(header)));
    for (Comparison.Line l : c.lines()) {
      List<String> f = new ArrayList<>();
      f.add(l.label());
      for (String p : params) {
        f.add(l.params().getOrDefault(p, ""));
      }
      if (l instanceof Comparison.Gap g) {
        side(f, g.base());
        side(f, g.next());
        f.addAll(List.of("", "", "", "", "", "", "", ""));
        if (boots) {
          f.addAll(List.of("", "", "", "", "", "", ""));
        }
        out.append(Csv.line(f));
        continue;
      }
      Row r = (Row) l;
      side(f, r.base());
      side(f, r.next());
      f.add(Numbers.exact(r.change()));
      ends(f, r.interval());
      f.add(r.marker());
      f.add(Double.isNaN(r.p()) ? "" : Numbers.exact(r.p()));
      if (r.paired() != null) {
        f.add(Numbers.exact(r.paired().t()));
        f.add(Numbers.exact(r.paired().rounds() - 1));
      } else {
        f.add(r.welch() == null ? "" : Numbers.exact(r.welch().t()));
        f.add(r.welch() == null ? "" : Numbers.exact(r.welch().df()));
      }
      f.add(r.verdict().text());
      if (boots) {
        levels(f, r.boots());
      }
      out.append(Csv.line(f));
    }
    out.append(aggregate("TOTAL", c.total(), params.size(), boots));
    out.append(aggregate("geomean", c.geomean(), params.size(), boots));
    return out.toString();
  }

  private static void side(List<String> f, Stat s) {
    if (s == null) {
      f.addAll(List.of("", "", "", "0"));
      return;
    }
    f.add(Numbers.exact(s.mean()));
    f.add(Numbers.exact(s.stddevPop()));
    f.add(Numbers.exact(s.summary().stddevSamp()));
    f.add(String.valueOf(s.n()));
  }

  private static String aggregate(String label, Aggregate a, int params, boolean boots) {
    List<String> f = new ArrayList<>();
    f.add(label);
    for (int i = 0; i < params; i++) {
      f.add("");
    }
    f.addAll(List.of(Numbers.exact(a.base()), "", "", ""));
    f.addAll(List.of(Numbers.exact(a.next()), "", "", ""));
    f.add(Numbers.exact(a.change()));
    ends(f, a.interval());
    f.addAll(List.of("", "", "", "", ""));
    if (boots) {
      f.addAll(List.of("", "", "", "", "", "", ""));
    }
    return Csv.line(f);
  }

  private static void ends(List<String> f, Interval i) {
    f.add(i.known() ? Numbers.exact(i.low()) : "");
    f.add(i.known() ? Numbers.exact(i.high()) : "");
  }

  // A block axis may share its name with a column (an axis called "std"): keep both apart.
  static List<String> unique(List<String> names) {
    List<String> out = new ArrayList<>();
    for (String n : names) {
      String name = n;
      for (int k = 2; out.contains(name); k++) {
        name = n + "_" + k;
      }
      out.add(name);
    }
    return out;
  }
}
