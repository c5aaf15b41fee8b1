package io.tunelab.report;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.tunelab.store.SampleRow;
import io.tunelab.store.SampleSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes samples in long format as they arrive: one row per sample, with its trial, its cell and
 * every parameter ({@code param:<axis>}) and knob ({@code knob:<knob>}) of the cell. Nothing is
 * kept but the current line.
 */
public final class SampleWriter implements SampleSink {
  /** The columns before the parameters and knobs. */
  public static final List<String> FIXED =
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
          "started_at",
          "job",
          "metric",
          "value",
          "unit");

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
    List<String> names = new ArrayList<>(FIXED);
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
    line.setLength(0);
    if (format == ExportFormat.JSON) {
      line.append(rows == 0 ? "\n  " : ",\n  ");
    }
    if (format != ExportFormat.CSV) {
      line.append('{');
    }
    field = 0;
    number(r.experimentId());
    text(r.experiment());
    number(r.cellId());
    number(r.ordinal());
    text(r.label());
    number(r.trialId());
    number(r.rep());
    number(r.seq());
    number(r.warmup() ? 1 : 0);
    text(r.status().text());
    text(r.startedAt());
    text(r.job());
    text(r.metric());
    value(r.value());
    text(r.unit());
    for (String p : r.params()) {
      text(p);
    }
    for (String k : r.knobs()) {
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

  /** How many samples were written. */
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
