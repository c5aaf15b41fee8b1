package io.tunelab.store.sqlite;

import io.tunelab.TunelabException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One SQL statement of the user's ({@code tunelab query}) read as SQLite's tokenizer reads it:
 * comments, quoted strings and identifiers, named parameters. It decides, before anything is
 * prepared, whether the statement may run at all: {@code tunelab query} runs only statements that
 * read.
 *
 * @param text the statement without leading comments and without its final semicolon
 * @param kind what it starts with
 * @param parameters its named parameters ({@code :name}, {@code $name}, {@code @name}) in the order
 *     SQLite numbers them: by first appearance
 */
record SqliteStatementText(String text, Kind kind, List<String> parameters) {

  /** What a statement that may run starts with. */
  enum Kind {
    /** SELECT, WITH or VALUES: prepared once more under EXPLAIN to prove that it only reads. */
    QUERY,
    /** A PRAGMA from the list of those that only read, in a reading form. */
    PRAGMA,
    /** EXPLAIN [QUERY PLAN] of a statement that may run itself: describes, never executes. */
    EXPLAIN,
    /** Not checked: a statement for a store opened for writing. */
    ANY
  }

  /** The PRAGMAs that read, asked without an argument. */
  static final Set<String> PRAGMAS_TO_READ =
      Set.of(
          "application_id",
          "collation_list",
          "compile_options",
          "data_version",
          "database_list",
          "encoding",
          "foreign_key_check",
          "foreign_keys",
          "freelist_count",
          "function_list",
          "integrity_check",
          "journal_mode",
          "module_list",
          "page_count",
          "page_size",
          "pragma_list",
          "quick_check",
          "schema_version",
          "table_list",
          "user_version");

  /** The PRAGMAs that read about what their one argument names (a table, an index, a limit). */
  static final Set<String> PRAGMAS_WITH_ARGUMENT =
      Set.of(
          "foreign_key_check",
          "foreign_key_list",
          "index_info",
          "index_list",
          "index_xinfo",
          "integrity_check",
          "quick_check",
          "table_info",
          "table_list",
          "table_xinfo");

  /** Statements that would change the database file itself. */
  private static final Set<String> WRITES =
      Set.of(
          "INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER", "REINDEX", "ANALYZE");

  /**
   * Reads {@code sql} and refuses, with exit code 2, what {@code tunelab query} does not run: no
   * statement, several statements, anything but a read statement, positional parameters.
   *
   * @param db the database file, for messages
   */
  static SqliteStatementText of(String sql, Path db) {
    String text = single(sql);
    Kind kind = kind(text, db, true);
    return new SqliteStatementText(text, kind, parameters(text));
  }

  /**
   * Reads {@code sql} as one statement of any kind ({@link Kind#ANY}): for a store opened for
   * writing, whose caller is tunelab itself.
   */
  static SqliteStatementText anyKind(String sql) {
    String text = single(sql);
    return new SqliteStatementText(text, Kind.ANY, parameters(text));
  }

  /** For {@link Kind#EXPLAIN}: the statement it explains. */
  String explained() {
    int i = skipNoise(text, afterWord(text, 0));
    String word = word(text, i);
    if (word.equalsIgnoreCase("QUERY")) {
      i = skipNoise(text, afterWord(text, i));
      i = skipNoise(text, afterWord(text, i)); // PLAN
    }
    return text.substring(i);
  }

  /**
   * The one statement in {@code sql}, without its final semicolon. SQLite would silently ignore
   * everything after the first statement, so a second one is refused here.
   */
  static String single(String sql) {
    int start = skipNoise(sql, 0);
    if (start == sql.length()) {
      throw new TunelabException(TunelabException.BAD_INPUT, "no SQL statement given");
    }
    int i = start;
    while (i < sql.length() && sql.charAt(i) != ';') {
      i = next(sql, i);
    }
    if (skipNoise(sql, i) != sql.length()) {
      throw new TunelabException(
          TunelabException.BAD_INPUT, "tunelab query runs one SQL statement; found more than one");
    }
    return sql.substring(start, i);
  }

  private static Kind kind(String text, Path db, boolean explainAllowed) {
    String word = word(text, 0).toUpperCase(Locale.ROOT);
    switch (word) {
      case "SELECT", "WITH", "VALUES":
        return Kind.QUERY;
      case "PRAGMA":
        checkPragma(text);
        return Kind.PRAGMA;
      case "EXPLAIN":
        if (explainAllowed) {
          SqliteStatementText outer = new SqliteStatementText(text, Kind.EXPLAIN, List.of());
          kind(outer.explained(), db, false);
          return Kind.EXPLAIN;
        }
        break;
      default:
        if (WRITES.contains(word)) {
          throw wouldChange(db);
        }
    }
    throw new TunelabException(
        TunelabException.BAD_INPUT,
        "tunelab query runs only read statements (SELECT, WITH … SELECT, VALUES, EXPLAIN,"
            + " read-only PRAGMAs), not "
            + (word.isEmpty() ? "a statement starting with '" + first(text) + "'" : word));
  }

  /** The message for a statement that would write: the same whichever check finds it. */
  static TunelabException wouldChange(Path db) {
    return new TunelabException(
        TunelabException.BAD_INPUT,
        "tunelab query is read-only: this statement would change " + db);
  }

  /**
   * Accepts {@code PRAGMA [schema.]name} for a PRAGMA that reads, and {@code PRAGMA
   * [schema.]name(arg)} for one whose argument names what to read about; never {@code = value},
   * which sets.
   */
  private static void checkPragma(String text) {
    int i = skipNoise(text, afterWord(text, 0));
    String name = word(text, i);
    i = skipNoise(text, afterWord(text, i));
    if (i < text.length() && text.charAt(i) == '.') {
      i = skipNoise(text, i + 1);
      name = word(text, i);
      i = skipNoise(text, afterWord(text, i));
    }
    name = name.toLowerCase(Locale.ROOT);
    boolean reads = PRAGMAS_TO_READ.contains(name) || PRAGMAS_WITH_ARGUMENT.contains(name);
    if (name.isEmpty() || !reads) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "tunelab query runs only the PRAGMAs that read (docs/sql.md lists them), not PRAGMA "
              + (name.isEmpty() ? first(text.substring(i)) : name));
    }
    if (i == text.length()) {
      return;
    }
    if (text.charAt(i) == '(' && PRAGMAS_WITH_ARGUMENT.contains(name)) {
      int arg = skipNoise(text, i + 1);
      int end = skipNoise(text, oneToken(text, arg));
      if (end > arg
          && end < text.length()
          && text.charAt(end) == ')'
          && skipNoise(text, end + 1) == text.length()) {
        return;
      }
    }
    throw new TunelabException(
        TunelabException.BAD_INPUT,
        "tunelab query is read-only: PRAGMA "
            + name
            + " is run only to read"
            + (PRAGMAS_WITH_ARGUMENT.contains(name)
                ? ", as PRAGMA " + name + " or PRAGMA " + name + "(NAME)"
                : ", as PRAGMA " + name + " without a value"));
  }

  /** After one name, number or quoted token at {@code i}; {@code i} when there is none. */
  private static int oneToken(String text, int i) {
    if (i < text.length() && (text.charAt(i) == '-' || text.charAt(i) == '+')) {
      int after = afterWord(text, i + 1);
      return after == i + 1 ? i : after;
    }
    int quoted = skipQuoted(text, i);
    return quoted != i ? quoted : afterWord(text, i);
  }

  /**
   * The named parameters in SQLite's numbering: a name gets the next number where it first appears.
   * Positional {@code ?} parameters are refused: nothing on the command line could give them a
   * value.
   */
  private static List<String> parameters(String text) {
    List<String> names = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '?') {
        throw new TunelabException(
            TunelabException.BAD_INPUT,
            "tunelab query binds named parameters only: write :name instead of ? and give"
                + " --param name=VALUE");
      }
      if ((c == ':' || c == '$' || c == '@') && isWordChar(text, i + 1)) {
        int end = afterWord(text, i + 1);
        String name = text.substring(i, end);
        if (!names.contains(name)) {
          names.add(name);
        }
        i = end;
      } else {
        i = next(text, i);
      }
    }
    return List.copyOf(names);
  }

  /** After the comment, quoted text, word or single character at {@code i}. */
  private static int next(String sql, int i) {
    int next = skipComment(sql, i);
    if (next == i) {
      next = skipQuoted(sql, i);
    }
    if (next == i) {
      next = afterWord(sql, i);
    }
    return next == i ? i + 1 : next;
  }

  /** The word (keyword, name, number) at {@code i}, or {@code ""}. */
  private static String word(String sql, int i) {
    return sql.substring(i, afterWord(sql, i));
  }

  private static String first(String text) {
    return text.isEmpty() ? "" : text.substring(0, 1);
  }

  /** After the letters, digits, {@code _} and {@code $} at {@code i}, as SQLite's identifiers. */
  private static int afterWord(String sql, int i) {
    int j = i;
    while (isWordChar(sql, j)) {
      j++;
    }
    return j;
  }

  private static boolean isWordChar(String sql, int i) {
    if (i >= sql.length()) {
      return false;
    }
    char c = sql.charAt(i);
    return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c >= 0x80;
  }

  /** Skips whitespace, comments and semicolons. */
  private static int skipNoise(String sql, int i) {
    while (i < sql.length()) {
      int next = skipComment(sql, i);
      if (next != i) {
        i = next;
      } else if (Character.isWhitespace(sql.charAt(i)) || sql.charAt(i) == ';') {
        i++;
      } else {
        break;
      }
    }
    return i;
  }

  private static int skipComment(String sql, int i) {
    if (sql.startsWith("--", i)) {
      int end = sql.indexOf('\n', i);
      return end < 0 ? sql.length() : end + 1;
    }
    if (sql.startsWith("/*", i)) {
      int end = sql.indexOf("*/", i + 2);
      return end < 0 ? sql.length() : end + 2;
    }
    return i;
  }

  /** Skips a quoted string or identifier ('…', "…", `…`, […]); doubled quotes stay inside. */
  private static int skipQuoted(String sql, int i) {
    if (i >= sql.length()) {
      return i;
    }
    char open = sql.charAt(i);
    char close =
        switch (open) {
          case '\'', '"', '`' -> open;
          case '[' -> ']';
          default -> 0;
        };
    if (close == 0) {
      return i;
    }
    int j = i + 1;
    while (j < sql.length()) {
      if (sql.charAt(j) == close) {
        if (close != ']' && j + 1 < sql.length() && sql.charAt(j + 1) == close) {
          j += 2;
          continue;
        }
        return j + 1;
      }
      j++;
    }
    return sql.length();
  }
}
