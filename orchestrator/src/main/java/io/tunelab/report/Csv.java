package io.tunelab.report;

import java.util.List;

/** RFC 4180 fields and lines. */
final class Csv {
  private Csv() {}

  /** The field, in double quotes (doubled inside) when it holds {@code , " CR LF}. */
  static String field(String s) {
    if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
      return s;
    }
    return '"' + s.replace("\"", "\"\"") + '"';
  }

  /** One line of fields, ending with {@code \n}. */
  static String line(List<String> fields) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        line.append(',');
      }
      line.append(field(fields.get(i)));
    }
    return line.append('\n').toString();
  }
}
