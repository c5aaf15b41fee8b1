package io.tunelab.store.postgres;

import io.tunelab.TunelabException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.postgresql.core.Parser;

/**
 * A user's statement for {@code tunelab query} on PostgreSQL: exactly one, of a kind that reads,
 * with its {@code :name} parameters turned into {@code ?}. Quotes, dollar quotes and comments are
 * skipped, so a {@code ;} or {@code :x} inside them counts for nothing, and {@code ::type} is a
 * cast. One statement matters beyond tidiness: a {@code COMMIT;} would end the read-only
 * transaction the statement runs in.
 */
record PostgresStatementText(String text, List<String> parameters) {
  /** Functions that take locks held past the statement, or signal other sessions. */
  private static final Pattern FORBIDDEN =
      Pattern.compile(
          "\\bpg_(try_)?advisory_\\w*|\\bpg_(terminate|cancel)_backend\\b|\\bpg_reload_conf\\b",
          Pattern.CASE_INSENSITIVE);

  private static final Set<String> READS =
      Set.of("SELECT", "WITH", "VALUES", "TABLE", "EXPLAIN", "SHOW");

  /** Reads {@code sql}; anything but one read statement fails with exit code 2. */
  static PostgresStatementText of(String sql) {
    StringBuilder out = new StringBuilder();
    List<String> names = new ArrayList<>();
    int i = 0;
    int n = sql.length();
    boolean ended = false;
    while (i < n) {
      char ch = sql.charAt(i);
      int end = skip(sql, i);
      if (end > i) {
        if (ended && !isComment(sql, i)) {
          throw more();
        }
        out.append(sql, i, end);
        i = end;
      } else if (ch == ';') {
        ended = true;
        i++;
      } else if (ended && !Character.isWhitespace(ch)) {
        throw more();
      } else if (ch == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
        out.append("::");
        i += 2;
      } else if (ch == ':' && i + 1 < n && isNameStart(sql.charAt(i + 1))) {
        int j = i + 1;
        while (j < n && isNamePart(sql.charAt(j))) {
          j++;
        }
        names.add(sql.substring(i, j));
        out.append('?');
        i = j;
      } else {
        out.append(ch);
        i++;
      }
    }
    String text = out.toString().strip();
    String first = firstWord(text);
    if (first.isEmpty()) {
      throw new TunelabException(TunelabException.BAD_INPUT, "no SQL statement given");
    }
    if (!READS.contains(first)) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "tunelab query runs only read statements (SELECT, WITH … SELECT, VALUES, TABLE,"
              + " EXPLAIN, SHOW), not "
              + first);
    }
    if (statementsAsPgjdbcSplits(text) != 1) {
      throw more();
    }
    Matcher forbidden = FORBIDDEN.matcher(sql);
    if (forbidden.find()) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "tunelab query does not run "
              + forbidden.group().toLowerCase(Locale.ROOT)
              + "…: a lock or a signal to another session reaches beyond one reading statement");
    }
    return new PostgresStatementText(text, List.copyOf(names));
  }

  /**
   * How many statements pgjdbc, which sends the text, finds in it: where its reading and this one's
   * could differ, the stricter wins.
   */
  private static int statementsAsPgjdbcSplits(String text) {
    try {
      return Parser.parseJdbcSql(text, true, true, true, false, true).size();
    } catch (SQLException e) {
      throw new TunelabException(
          TunelabException.BAD_INPUT, "cannot read the statement: " + e.getMessage(), e);
    }
  }

  private static TunelabException more() {
    return new TunelabException(
        TunelabException.BAD_INPUT, "tunelab query runs one SQL statement; found more than one");
  }

  /**
   * The end of a quoted string, identifier, dollar-quoted string or comment at {@code i}; else i.
   */
  private static int skip(String sql, int i) {
    char ch = sql.charAt(i);
    if (ch == '\'' || ch == '"') {
      // E'…' takes backslash escapes: E'\'' is one quote, not the end.
      boolean escapes =
          ch == '\''
              && i > 0
              && (sql.charAt(i - 1) == 'E' || sql.charAt(i - 1) == 'e')
              && (i == 1 || !isIdentifierPart(sql.charAt(i - 2)));
      int j = i + 1;
      while (j < sql.length()) {
        if (escapes && sql.charAt(j) == '\\') {
          j += 2;
          continue;
        }
        if (sql.charAt(j) == ch) {
          if (j + 1 < sql.length() && sql.charAt(j + 1) == ch) {
            j += 2;
            continue;
          }
          return j + 1;
        }
        j++;
      }
      throw unterminated();
    }
    if (sql.startsWith("--", i)) {
      int j = sql.indexOf('\n', i);
      return j < 0 ? sql.length() : j + 1;
    }
    if (sql.startsWith("/*", i)) {
      int j = sql.indexOf("*/", i + 2);
      if (j < 0) {
        throw unterminated();
      }
      return j + 2;
    }
    // In a name ($ may follow its first character: a$x$) a dollar sign starts no quote.
    if (ch == '$' && (i == 0 || !isIdentifierPart(sql.charAt(i - 1)))) {
      int j = i + 1;
      while (j < sql.length() && isNamePart(sql.charAt(j))) {
        j++;
      }
      if (j < sql.length()
          && sql.charAt(j) == '$'
          && (j == i + 1 || isNameStart(sql.charAt(i + 1)))) {
        String tag = sql.substring(i, j + 1);
        int close = sql.indexOf(tag, j + 1);
        if (close < 0) {
          throw unterminated();
        }
        return close + tag.length();
      }
    }
    return i;
  }

  private static boolean isComment(String sql, int i) {
    return sql.startsWith("--", i) || sql.startsWith("/*", i);
  }

  private static TunelabException unterminated() {
    return new TunelabException(
        TunelabException.BAD_INPUT, "the statement has an unterminated quote or comment");
  }

  private static String firstWord(String text) {
    int i = 0;
    while (i < text.length()) {
      int end = skip(text, i);
      if (end > i && isComment(text, i)) {
        i = end;
      } else if (Character.isWhitespace(text.charAt(i)) || text.charAt(i) == '(') {
        i++;
      } else {
        break;
      }
    }
    int j = i;
    while (j < text.length() && Character.isLetter(text.charAt(j))) {
      j++;
    }
    return text.substring(i, j).toUpperCase(Locale.ROOT);
  }

  private static boolean isNameStart(char c) {
    return Character.isLetter(c) || c == '_';
  }

  private static boolean isNamePart(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  private static boolean isIdentifierPart(char c) {
    return isNamePart(c) || c == '$';
  }
}
