package io.tunelab.store.postgres;

import io.tunelab.TunelabException;
import io.tunelab.store.QueryAnswer;
import io.tunelab.store.QueryLimits;
import io.tunelab.store.ResultTable;
import io.tunelab.store.sql.QueryRows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one statement of the user's ({@code tunelab query}) on PostgreSQL: one read statement
 * ({@link PostgresStatementText}) in a READ ONLY transaction of a session whose every transaction
 * is read only, which the server refuses to let write, under a statement timeout and a row limit,
 * then rolled back.
 */
public final class PostgresQueryRunner {
  private static final String READ_ONLY_TRANSACTION = "25006";
  private static final String QUERY_CANCELED = "57014";

  private PostgresQueryRunner() {}

  /** As the SQLite runner: {@code params} bind the statement's {@code :name}s. */
  public static QueryAnswer query(
      PostgresUrl url,
      Map<String, String> env,
      String sql,
      Map<String, String> params,
      QueryLimits limits) {
    PostgresStatementText statement = PostgresStatementText.of(sql);
    List<String> values = values(statement.parameters(), params);
    try (PostgresDatabase db = PostgresSchema.openForQuery(url, env, limits.timeout())) {
      return db.transaction("run the query", c -> run(c, url, statement, values, limits));
    } catch (TunelabException e) {
      if (e.getCause() instanceof SQLException s) {
        throw refusal(url, s, limits, e);
      }
      throw e;
    }
  }

  private static QueryAnswer run(
      Connection c,
      PostgresUrl url,
      PostgresStatementText statement,
      List<String> values,
      QueryLimits limits)
      throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute("SET TRANSACTION READ ONLY");
      st.execute("SET LOCAL statement_timeout = " + limits.timeout().toMillis());
    }
    try (PreparedStatement ps = c.prepareStatement(statement.text())) {
      for (int i = 0; i < values.size(); i++) {
        // Untyped, as a literal in the text would be: the server gives it the type it needs.
        ps.setObject(i + 1, values.get(i), Types.OTHER);
      }
      ps.setMaxRows(limits.maxRows() == Integer.MAX_VALUE ? 0 : limits.maxRows() + 1);
      if (!ps.execute()) {
        c.rollback();
        return new QueryAnswer(new ResultTable(List.of(), List.of()), false);
      }
      try (ResultSet rs = ps.getResultSet()) {
        QueryAnswer answer = QueryRows.read(rs, limits.maxRows());
        c.rollback();
        return answer;
      }
    }
  }

  private static TunelabException refusal(
      PostgresUrl url, SQLException s, QueryLimits limits, TunelabException e) {
    if (READ_ONLY_TRANSACTION.equals(s.getSQLState())) {
      return new TunelabException(
          TunelabException.BAD_INPUT,
          "tunelab query is read-only: this statement would change " + url,
          e);
    }
    if (QUERY_CANCELED.equals(s.getSQLState())) {
      return new TunelabException(
          TunelabException.BAD_INPUT,
          "query stopped: still running after "
              + limits.timeout().toSeconds()
              + " s (--timeout); narrow the statement or give a longer --timeout",
          e);
    }
    if (e.exitCode() == TunelabException.INTERNAL) {
      return new TunelabException(
          TunelabException.BAD_INPUT, "query failed: " + PostgresDatabase.reason(s), e);
    }
    return e;
  }

  private static List<String> values(List<String> names, Map<String, String> params) {
    Map<String, String> given = new LinkedHashMap<>();
    params.forEach((k, v) -> given.put(k.replaceFirst("^[:$@]", ""), v));
    List<String> values = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (String name : names) {
      String value = given.get(name.substring(1));
      if (value == null) {
        missing.add(name.substring(1));
      } else {
        values.add(value);
      }
    }
    if (!missing.isEmpty()) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "the statement's parameters "
              + String.join(", ", missing)
              + " have no value: give --param NAME=VALUE");
    }
    return values;
  }
}
