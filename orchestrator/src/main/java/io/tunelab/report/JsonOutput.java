package io.tunelab.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.tunelab.report.Comparison.Aggregate;
import io.tunelab.report.Comparison.Row;
import io.tunelab.report.Table.Block;
import io.tunelab.report.Table.Measure;
import io.tunelab.report.Table.Text;
import io.tunelab.report.Table.Value;
import io.tunelab.stats.Interval;
import io.tunelab.stats.Summary;
import io.tunelab.store.ReportData;
import io.tunelab.store.ReportData.Cell;
import io.tunelab.store.ReportData.Stat;
import io.tunelab.store.ReportData.Trial;
import io.tunelab.store.TrialStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One JSON document per report or comparison, with the numbers behind the table: statistics, 95 %
 * confidence intervals, t-tests and warnings. Numbers are numbers; NaN becomes null.
 */
final class JsonOutput {
  /** The confidence level of the intervals reports give. */
  static final double LEVEL = 0.95;

  private JsonOutput() {}

  static String report(Report r) {
    ReportData d = r.data();
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("experiment", experiment(d));
    boolean several = r.isSideBySide();
    doc.put("job", several ? null : d.job());
    doc.put("metric", several ? null : r.metric());
    doc.put("unit", several ? null : r.unit());
    if (several) {
      List<Map<String, Object>> shown = new ArrayList<>();
      for (Report.JobMetric m : r.sideBySide()) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("job", m.job());
        one.put("metric", m.metric());
        one.put("unit", m.unit());
        shown.add(one);
      }
      doc.put("side_by_side", shown);
    }
    Map<String, Object> layout = new LinkedHashMap<>();
    layout.put("blocks", r.layout().blocks().stream().map(r.axes()::shown).toList());
    layout.put("rows", r.layout().rows().stream().map(r.axes()::shown).toList());
    layout.put(
        "columns", r.layout().columns() == null ? null : r.axes().shown(r.layout().columns()));
    doc.put("layout", layout);
    List<String> names = CsvOutput.header(r.table());
    doc.put("columns", names);
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Block block : r.table().blocks()) {
      for (List<Value> row : block.rows()) {
        List<Object> values = new ArrayList<>(block.key());
        for (Value v : row) {
          values.addAll(values(v));
        }
        Map<String, Object> object = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
          object.put(names.get(i), values.get(i));
        }
        rows.add(object);
      }
    }
    doc.put("rows", rows);
    List<Map<String, Object>> cells = new ArrayList<>();
    List<Map<Integer, Cell>> byOrdinal = new ArrayList<>();
    for (Report.JobMetric m : r.sideBySide()) {
      Map<Integer, Cell> of = new HashMap<>();
      m.data().cells().forEach(c -> of.put(c.ordinal(), c));
      byOrdinal.add(of);
    }
    for (Cell c : d.cells()) {
      cells.add(several ? sideBySideCell(c, r.sideBySide(), byOrdinal) : cell(c, r.metric()));
    }
    doc.put("cells", cells);
    doc.put("failed_trials", failed(d));
    if (!r.boots().isEmpty()) {
      List<Map<String, Object>> boots = new ArrayList<>();
      for (BootSpread b : r.boots()) {
        Map<String, Object> cell = new LinkedHashMap<>();
        cell.put("ordinal", b.ordinal());
        cell.put("label", b.label());
        cell.put("metric", r.metric());
        cell.put("boots", b.boots());
        cell.put("between_boot_sd", num(b.between()));
        cell.put("within_boot_sd", num(b.within()));
        boots.add(cell);
      }
      doc.put("boots", boots);
    }
    if (several) {
      List<Map<String, Object>> all = new ArrayList<>();
      for (Report.JobMetric m : r.sideBySide()) {
        for (Map<String, Object> w : warnings(m.warnings())) {
          Map<String, Object> about = new LinkedHashMap<>();
          about.put("job", m.job());
          about.put("metric", m.metric());
          about.putAll(w);
          all.add(about);
        }
      }
      doc.put("warnings", all);
    } else {
      doc.put("warnings", warnings(r.warnings()));
    }
    doc.put("unfinished", r.unfinished());
    return write(doc);
  }

  static String comparison(Comparison c) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("base", side(c.base()));
    doc.put("new", side(c.next()));
    doc.put("metric", c.metric());
    doc.put("unit", c.unit());
    doc.put("direction", c.direction().text());
    doc.put("job", c.job());
    doc.put("alpha", c.options().alpha());
    doc.put("min_change_pct", c.options().minChange());
    doc.put("confidence_level", c.options().level());
    doc.put("test", c.options().test().text());
    doc.put("paired", c.paired());
    List<Map<String, Object>> differences = new ArrayList<>();
    for (Comparison.Difference d : c.differences()) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("kind", d.kind());
      one.put("subject", d.subject());
      one.put("base", d.base());
      one.put("new", d.next());
      one.put("rows", d.rows());
      differences.add(one);
    }
    doc.put("differences", differences);
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Row r : c.rows()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("label", r.label());
      row.put("params", r.params());
      row.put("base", stat(r.baseCell(), r.base(), c.options().level()));
      row.put("new", stat(r.newCell(), r.next(), c.options().level()));
      row.put("change_pct", num(r.change()));
      row.put("change_ci", interval(r.interval()));
      row.put("marker", r.marker());
      row.put("significant", r.significant());
      row.put("verdict", r.verdict().text());
      if (r.welch() != null) {
        row.put("difference", num(r.welch().difference()));
        row.put("difference_ci", interval(r.welch().interval()));
        row.put("t", num(r.welch().t()));
        row.put("df", num(r.welch().df()));
        row.put("p", num(r.p()));
      } else {
        row.put("difference", num(r.next().mean() - r.base().mean()));
        row.put("difference_ci", null);
        row.put("t", null);
        row.put("df", null);
        row.put("p", Double.isNaN(r.p()) ? null : num(r.p()));
      }
      if (r.paired() != null) {
        Map<String, Object> paired = new LinkedHashMap<>();
        paired.put("rounds", r.paired().rounds());
        paired.put("change_pct", num(r.paired().change()));
        paired.put("t", num(r.paired().t()));
        row.put("paired", paired);
      }
      if (r.boots() != null) {
        Map<String, Object> boots = new LinkedHashMap<>();
        boots.put("base", level(r.boots().base()));
        boots.put("new", level(r.boots().next()));
        boots.put("more", r.boots().advice().key());
        row.put("boots", boots);
      }
      rows.add(row);
    }
    doc.put("rows", rows);
    doc.put("total", aggregate(c.total()));
    doc.put("geomean", aggregate(c.geomean()));
    Map<String, Object> verdicts = new LinkedHashMap<>();
    c.verdicts().forEach((v, n) -> verdicts.put(v.text(), n));
    doc.put("verdicts", verdicts);
    doc.put("only_in_base", c.onlyInBase());
    doc.put("only_in_new", c.onlyInNew());
    doc.put("unmeasured", c.unmeasured());
    Map<String, Object> warnings = new LinkedHashMap<>();
    warnings.put("base", warnings(c.baseWarnings()));
    warnings.put("new", warnings(c.newWarnings()));
    doc.put("warnings", warnings);
    return write(doc);
  }

  private static Map<String, Object> experiment(ReportData d) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("id", d.experimentId());
    e.put("name", d.name());
    e.put("status", d.status().text());
    Map<String, Object> trials = new LinkedHashMap<>();
    trials.put("total", d.counts().total());
    for (TrialStatus status : TrialStatus.values()) {
      trials.put(status.text(), d.counts().of(status));
    }
    e.put("trials", trials);
    ReportData.About about = d.about();
    e.put("description", about.description());
    e.put("started_at", about.startedAt());
    e.put("tool_version", about.toolVersion());
    e.put("overrides", d.overrides());
    e.put("workload", about.workload());
    e.put("repeat", repeat(d));
    List<Map<String, Object>> hosts = new ArrayList<>();
    for (ReportData.Host h : d.hosts()) {
      Map<String, Object> host = new LinkedHashMap<>();
      host.put("role", h.role());
      host.put("host", h.host());
      host.put("kernel_release", h.kernelRelease());
      host.put("cpus", h.cpus());
      host.put("mem_kb", h.memKb());
      host.put("cpu_model", h.cpuModel());
      host.put("cpufreq_governor", h.cpufreqGovernor());
      hosts.add(host);
    }
    e.put("hosts", hosts);
    return e;
  }

  /** An adaptive repeat rule and the cells that fell short of it; null for a fixed count. */
  private static Map<String, Object> repeat(ReportData d) {
    ReportData.Repetitions r = d.repetitions();
    if (r == null) {
      return null;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("min", r.rule().min());
    m.put("max", r.rule().max());
    m.put("target", r.rule().target());
    m.put("metric", r.metric());
    List<Integer> fellShort = new ArrayList<>();
    for (ReportData.CellRepetitions c : r.cells()) {
      if (r.rule().shortOfTarget(c.n(), c.relativeHalfWidth())) {
        fellShort.add(c.ordinal());
      }
    }
    m.put("short_of_target", fellShort);
    if (r.rule().compares()) {
      m.put("compare", r.rule().compare());
      List<Map<String, Object>> ratios = new ArrayList<>();
      for (RatioChecks c : RatioChecks.of(d)) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("group", c.group());
        one.put("base", c.base());
        one.put("value", c.value());
        one.put("change_pct", num(c.change()));
        one.put("change_ci", interval(c.interval()));
        one.put("half_width", Double.isNaN(c.halfWidth()) ? null : num(c.halfWidth()));
        one.put("held", c.held());
        one.put("n", List.of(c.baseN(), c.newN()));
        one.put("boots_as_unit", c.boots());
        ratios.add(one);
      }
      m.put("ratios", ratios);
    }
    return m;
  }

  /** One side's per-boot means and spreads, the unit of its row's interval. */
  private static Map<String, Object> level(BootLevels.Level l) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("boots", l.boots());
    m.put("trials", l.trials());
    m.put("means", l.means().stream().map(JsonOutput::num).toList());
    m.put("between_sd", Double.isNaN(l.between()) ? null : num(l.between()));
    m.put("within_sd", Double.isNaN(l.within()) ? null : num(l.within()));
    return m;
  }

  private static Map<String, Object> side(Comparison.Side s) {
    Map<String, Object> side = new LinkedHashMap<>();
    side.put("name", s.name());
    side.put("detail", s.detail());
    side.put("experiment", experiment(s.data()));
    if (!s.cmdlines().isEmpty()) {
      side.put("cmdlines", s.cmdlines());
    }
    return side;
  }

  private static Map<String, Object> cell(Cell c, String metric) {
    Map<String, Object> cell = new LinkedHashMap<>();
    cell.put("ordinal", c.ordinal());
    cell.put("label", c.label());
    cell.put("params", c.params());
    Stat s = metric == null ? null : c.stats().get(metric);
    cell.putAll(s == null ? emptyStat() : stat(null, s, LEVEL));
    List<Object> values = new ArrayList<>();
    for (Trial t : c.measured()) {
      Double v = metric == null || t.status() != TrialStatus.OK ? null : t.value(metric);
      values.add(v);
    }
    cell.put("values", values);
    return cell;
  }

  // Per shown job and metric: the statistics of this cell and its values per repetition.
  private static Map<String, Object> sideBySideCell(
      Cell c, List<Report.JobMetric> shown, List<Map<Integer, Cell>> byOrdinal) {
    Map<String, Object> cell = new LinkedHashMap<>();
    cell.put("ordinal", c.ordinal());
    cell.put("label", c.label());
    cell.put("params", c.params());
    List<Map<String, Object>> measures = new ArrayList<>();
    for (int i = 0; i < shown.size(); i++) {
      Report.JobMetric m = shown.get(i);
      Cell of = byOrdinal.get(i).getOrDefault(c.ordinal(), c);
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("job", m.job());
      one.put("metric", m.metric());
      Map<String, Object> stats = cell(of, m.metric());
      stats.remove("ordinal");
      stats.remove("label");
      stats.remove("params");
      one.putAll(stats);
      measures.add(one);
    }
    cell.put("side_by_side", measures);
    return cell;
  }

  private static Map<String, Object> emptyStat() {
    Map<String, Object> s = new LinkedHashMap<>();
    for (String k :
        List.of("n", "mean", "stddev_pop", "stddev_samp", "min", "median", "max", "cv", "ci95")) {
      s.put(k, null);
    }
    return s;
  }

  private static Map<String, Object> stat(Cell cell, Stat stat, double level) {
    Summary s = stat.summary();
    Map<String, Object> m = new LinkedHashMap<>();
    if (cell != null) {
      m.put("cell", cell.ordinal());
    }
    m.put("n", s.n());
    m.put("mean", num(s.mean()));
    m.put("stddev_pop", num(s.stddevPop()));
    m.put("stddev_samp", num(s.stddevSamp()));
    m.put("min", num(s.min()));
    m.put("median", num(s.median()));
    m.put("max", num(s.max()));
    m.put("cv", num(s.cv()));
    m.put(level == LEVEL ? "ci95" : "ci", interval(s.meanInterval(level)));
    return m;
  }

  private static List<Object> interval(Interval i) {
    if (!i.known()) {
      return null;
    }
    List<Object> ends = new ArrayList<>();
    ends.add(num(i.low()));
    ends.add(num(i.high()));
    return ends;
  }

  private static Map<String, Object> aggregate(Aggregate a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("base", num(a.base()));
    m.put("new", num(a.next()));
    m.put("change_pct", num(a.change()));
    m.put("change_ci", interval(a.interval()));
    return m;
  }

  private static List<Map<String, Object>> failed(ReportData d) {
    List<Map<String, Object>> failed = new ArrayList<>();
    for (Cell c : d.cells()) {
      for (Trial t : c.trials()) {
        if (t.status() == TrialStatus.FAILED) {
          Map<String, Object> f = new LinkedHashMap<>();
          f.put("cell", c.ordinal());
          f.put("label", c.label());
          f.put("rep", t.rep());
          f.put("warmup", t.warmup());
          f.put("error", t.error());
          failed.add(f);
        }
      }
    }
    return failed;
  }

  private static List<Map<String, Object>> warnings(Warnings w) {
    List<Map<String, Object>> list = new ArrayList<>();
    for (String line : w.flagged()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("kind", "flagged");
      m.put("message", line);
      list.add(m);
    }
    for (String line : w.readbacks()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("kind", "readback");
      m.put("message", line);
      list.add(m);
    }
    for (Warnings.Entry e : w.entries()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("kind", e.kind().id());
      m.put("cell", e.cell());
      m.put("label", e.label());
      m.put("n", e.n());
      m.put("cv", num(e.cv()));
      if (e.kind() == Warnings.Kind.OUTLIER) {
        m.put("rep", e.rep());
        m.put("value", num(e.value()));
        m.put("score", num(e.score()));
      }
      list.add(m);
    }
    return list;
  }

  private static List<Object> values(Value v) {
    List<Object> out = new ArrayList<>();
    if (v instanceof Text t) {
      out.add(t.text());
    } else if (v instanceof Table.Number n) {
      out.add(num(n.value()));
    } else if (v instanceof Measure m) {
      out.add(num(m.mean()));
      out.add(num(m.std()));
    } else {
      out.add(null);
    }
    return out;
  }

  private static Double num(double d) {
    return Double.isFinite(d) ? d : null;
  }

  private static String write(Object doc) {
    try {
      return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc)
          + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }
}
