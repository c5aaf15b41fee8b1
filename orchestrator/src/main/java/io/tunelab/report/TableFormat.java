package io.tunelab.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tunelab.TunelabException;
import io.tunelab.store.ResultTable;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How {@code tunelab query} prints a {@link ResultTable}: {@code table}, {@code csv}, {@code json}.
 */
public enum TableFormat {
  /** Fixed-width columns for people: numbers right-aligned, doubles to 3 decimals at most. */
  TABLE {
    @Override
    public String render(ResultTable table) {
      return renderTable(table);
    }
  },
  /** RFC 4180 quoting, a header line, full precision, {@code \n} line ends, NULL as empty. */
  CSV {
    @Override
    public String render(ResultTable table) {
      return renderCsv(table);
    }
  },
  /** An array of objects, one per row and per line; numbers stay numbers, NULL is null. */
  JSON {
    @Override
    public String render(ResultTable table) {
      return renderJson(table);
    }
  };

  /** The whole output, ending with a newline. */
  public abstract String render(ResultTable table);

  /** Renders {@code table} in the format named {@code format}; an unknown name is exit code 2. */
  public static String render(ResultTable table, String format) {
    return named(format).render(table);
  }

  /** The format of that name, case-insensitively. */
  public static TableFormat named(String name) {
    for (TableFormat f : values()) {
      if (f.name().equalsIgnoreCase(name)) {
        return f;
      }
    }
    throw new TunelabException(
        TunelabException.BAD_INPUT, "unknown format " + name + " (expected table, csv or json)");
  }

  /**
   * A double for people: at most 3 decimals with trailing zeros dropped ({@code 62.668}, {@code
   * 1.5}, {@code 64}); below 1, three significant digits ({@code 0.000123}).
   */
  public static String humanNumber(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "inf" : "-inf";
    }
    if (d == 0) {
      return "0";
    }
    BigDecimal exact = new BigDecimal(d);
    BigDecimal rounded =
        Math.abs(d) >= 1
            ? exact.setScale(3, RoundingMode.HALF_EVEN)
            : exact.round(new MathContext(3, RoundingMode.HALF_EVEN));
    return rounded.stripTrailingZeros().toPlainString();
  }

  private static String renderTable(ResultTable table) {
    int n = table.columns().size();
    List<String[]> cells = new ArrayList<>();
    boolean[] numeric = new boolean[n];
    Arrays.fill(numeric, true);
    int[] width = new int[n];
    for (int i = 0; i < n; i++) {
      width[i] = table.columns().get(i).length();
    }
    for (List<Object> row : table.rows()) {
      String[] text = new String[n];
      for (int i = 0; i < n; i++) {
        Object v = row.get(i);
        if (v != null && !(v instanceof Number)) {
          numeric[i] = false;
        }
        text[i] = forTable(v);
        width[i] = Math.max(width[i], text[i].length());
      }
      cells.add(text);
    }
    StringBuilder out = new StringBuilder();
    appendLine(out, table.columns().toArray(String[]::new), width, numeric);
    String[] rule = new String[n];
    for (int i = 0; i < n; i++) {
      rule[i] = "-".repeat(width[i]);
    }
    appendLine(out, rule, width, numeric);
    for (String[] text : cells) {
      appendLine(out, text, width, numeric);
    }
    return out.toString();
  }

  private static void appendLine(StringBuilder out, String[] text, int[] width, boolean[] right) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < text.length; i++) {
      if (i > 0) {
        line.append("  ");
      }
      String pad = " ".repeat(width[i] - text[i].length());
      line.append(right[i] ? pad + text[i] : text[i] + pad);
    }
    out.append(line.toString().stripTrailing()).append('\n');
  }

  private static String forTable(Object v) {
    if (v == null) {
      return "";
    }
    if (v instanceof Double d) {
      return humanNumber(d);
    }
    if (v instanceof Float f) {
      return humanNumber(f);
    }
    // One row per line: line breaks and tabs inside a value are shown escaped.
    return plain(v)
        .replace("\\", "\\\\")
        .replace("\n", "\\n")
        .replace("\r", "\\r")
        .replace("\t", "\\t");
  }

  private static String renderCsv(ResultTable table) {
    StringBuilder out = new StringBuilder();
    List<String> header = new ArrayList<>();
    for (String c : table.columns()) {
      header.add(csvField(c));
    }
    out.append(String.join(",", header)).append('\n');
    for (List<Object> row : table.rows()) {
      List<String> fields = new ArrayList<>();
      for (Object v : row) {
        fields.add(v == null ? "" : csvField(exact(v)));
      }
      out.append(String.join(",", fields)).append('\n');
    }
    return out.toString();
  }

  private static String csvField(String s) {
    if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
      return s;
    }
    return '"' + s.replace("\"", "\"\"") + '"';
  }

  private static String renderJson(ResultTable table) {
    ObjectMapper mapper = new ObjectMapper();
    List<String> keys = uniqueKeys(table.columns());
    List<String> lines = new ArrayList<>();
    for (List<Object> row : table.rows()) {
      Map<String, Object> object = new LinkedHashMap<>();
      for (int i = 0; i < keys.size(); i++) {
        object.put(keys.get(i), forJson(row.get(i)));
      }
      try {
        lines.add(mapper.writeValueAsString(object));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("cannot write a row as JSON", e);
      }
    }
    if (lines.isEmpty()) {
      return "[]\n";
    }
    return "[\n  " + String.join(",\n  ", lines) + "\n]\n";
  }

  // SQL allows two columns of one name (a.id, b.id); JSON objects do not.
  private static List<String> uniqueKeys(List<String> columns) {
    Set<String> seen = new HashSet<>();
    List<String> keys = new ArrayList<>();
    for (String c : columns) {
      String key = c;
      for (int k = 2; !seen.add(key); k++) {
        key = c + "_" + k;
      }
      keys.add(key);
    }
    return keys;
  }

  private static Object forJson(Object v) {
    if (v instanceof Double d && !Double.isFinite(d)) {
      return null;
    }
    if (v instanceof byte[]) {
      return plain(v);
    }
    return v;
  }

  /** Full precision without exponent: {@code 62.668045141476874}, {@code 1}, {@code 0.0000001}. */
  private static String exact(Object v) {
    if (v instanceof Double d) {
      if (!Double.isFinite(d)) {
        return humanNumber(d);
      }
      if (d == 0) {
        return "0";
      }
      return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }
    return plain(v);
  }

  private static String plain(Object v) {
    if (v instanceof byte[] bytes) {
      StringBuilder hex = new StringBuilder("x'");
      for (byte b : bytes) {
        hex.append(String.format(Locale.ROOT, "%02x", b));
      }
      return hex.append('\'').toString();
    }
    return String.valueOf(v);
  }
}
