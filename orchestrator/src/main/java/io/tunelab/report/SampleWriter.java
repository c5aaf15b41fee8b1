package io.tunelab.report;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.tunelab.store.ExportedTrial;
import io.tunelab.store.SampleRow;
import io.tunelab.store.SampleSink;
import io.tunelab.store.TrialRow;
import io.tunelab.store.TrialRowSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes samples, or the rows of another per-trial table (processes, kept output), in long format
 * as they arrive: one row each, with its trial, its cell and every parameter ({@code param:<axis>})
 * and knob ({@code knob:<knob>}) of the cell. Nothing is kept but the current line.
 */
public final class SampleWriter implements SampleSink, TrialRowSink {
  /** The columns of a row's trial and cell, first in every export. */
  public static final List<String> TRIAL =
      List.of(
          "experiment_id",
          "experiment",
          "cell_id",
          "ordinal",
          "label",
          "trial_id",
          "rep",
          "seq",
          "warmup",
          "status",
          "started_at");

  /** The columns of a sample before the parameters and knobs. */
  public static final List<String> FIXED = concat(TRIAL, List.of("job", "metric", "value", "unit"));

  private final Appendable out;
  private final ExportFormat format;
  private final JsonStringEncoder json = JsonStringEncoder.getInstance();
  private final StringBuilder line = new StringBuilder(256);
  private List<String> keys;
  private List<String> jsonKeys;
  private char[] chars = new char[512];
  private long rows;
  private int field;

  /** Writes to {@code out}; write failures surface as {@link UncheckedIOException}. */
  public SampleWriter(Appendable out, ExportFormat format) {
    this.out = out;
    this.format = format;
  }

  @Override
  public void columns(List<String> params, List<String> knobs) {
    header(FIXED, params, knobs);
  }

  @Override
  public void columns(List<String> fields, List<String> params, List<String> knobs) {
    header(concat(TRIAL, fields), params, knobs);
  }

  private void header(List<String> fixed, List<String> params, List<String> knobs) {
    List<String> names = new ArrayList<>(fixed);
    params.forEach(p -> names.add("param:" + p));
    knobs.forEach(k -> names.add("knob:" + k));
    keys = CsvOutput.unique(names);
    jsonKeys = keys.stream().map(k -> '"' + new String(json.quoteAsString(k)) + "\":").toList();
    if (format == ExportFormat.CSV) {
      write(Csv.line(keys));
    } else if (format == ExportFormat.JSON) {
      write("[");
    }
  }

  @Override
  public void sample(SampleRow r) {
    begin();
    trial(r.trial());
    text(r.job());
    text(r.metric());
    value(r.value());
    text(r.unit());
    finish(r.trial());
  }

  @Override
  public void row(TrialRow r) {
    begin();
    trial(r.trial());
    for (Object v : r.values()) {
      if (v instanceof Long n) {
        number(n);
      } else if (v instanceof Boolean b) {
        number(b ? 1 : 0);
      } else if (v instanceof Double d) {
        value(d);
      } else {
        text(v == null ? null : v.toString());
      }
    }
    finish(r.trial());
  }

  private void begin() {
    line.setLength(0);
    if (format == ExportFormat.JSON) {
      line.append(rows == 0 ? "\n  " : ",\n  ");
    }
    if (format != ExportFormat.CSV) {
      line.append('{');
    }
    field = 0;
  }

  private void trial(ExportedTrial t) {
    number(t.experimentId());
    text(t.experiment());
    number(t.cellId());
    number(t.ordinal());
    text(t.label());
    number(t.trialId());
    number(t.rep());
    number(t.seq());
    number(t.warmup() ? 1 : 0);
    text(t.status().text());
    text(t.startedAt());
  }

  private void finish(ExportedTrial t) {
    for (String p : t.params()) {
      text(p);
    }
    for (String k : t.knobs()) {
      text(k);
    }
    line.append(format == ExportFormat.CSV ? "\n" : format == ExportFormat.JSONL ? "}\n" : "}");
    rows++;
    write(line);
  }

  @Override
  public void end() {
    if (format == ExportFormat.JSON) {
      write(rows == 0 ? "]\n" : "\n]\n");
    }
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return List.copyOf(all);
  }

  /** How many rows were written. */
  public long rows() {
    return rows;
  }

  // Each field starts with its separator (CSV) or its key (JSON).
  private void next() {
    if (format == ExportFormat.CSV) {
      if (field > 0) {
        line.append(',');
      }
    } else {
      if (field > 0) {
        line.append(',');
      }
      line.append(jsonKeys.get(field));
    }
    field++;
  }

  private void number(long v) {
    next();
    line.append(v);
  }

  private void value(Double v) {
    next();
    if (v == null || !Double.isFinite(v)) {
      line.append(format == ExportFormat.CSV ? "" : "null");
    } else {
      line.append(Numbers.exact(v));
    }
  }

  private void text(String v) {
    next();
    if (v == null) {
      line.append(format == ExportFormat.CSV ? "" : "null");
    } else if (format == ExportFormat.CSV) {
      line.append(Csv.field(v));
    } else {
      line.append('"').append(json.quoteAsString(v)).append('"');
    }
  }

  private void write(CharSequence text) {
    try {
      if (out instanceof Writer w && text instanceof StringBuilder b) {
        // Straight from the line buffer: no String copy of every line.
        if (chars.length < b.length()) {
          chars = new char[Math.max(b.length(), 2 * chars.length)];
        }
        b.getChars(0, b.length(), chars, 0);
        w.write(chars, 0, b.length());
      } else {
        out.append(text);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
