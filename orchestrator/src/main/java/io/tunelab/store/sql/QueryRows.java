package io.tunelab.store.sql;

import io.tunelab.store.QueryAnswer;
import io.tunelab.store.ResultTable;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The rows of a user's statement, as {@code tunelab query} prints them. */
public final class QueryRows {
  private QueryRows() {}

  /** The first {@code maxRows} rows of {@code rs}; whether there were more. */
  public static QueryAnswer read(ResultSet rs, int maxRows) throws SQLException {
    ResultSetMetaData meta = rs.getMetaData();
    int n = meta.getColumnCount();
    List<String> columns = new ArrayList<>(n);
    for (int i = 1; i <= n; i++) {
      columns.add(meta.getColumnLabel(i));
    }
    List<List<Object>> rows = new ArrayList<>();
    boolean more;
    while ((more = rs.next()) && rows.size() < maxRows) {
      List<Object> row = new ArrayList<>(n);
      for (int i = 1; i <= n; i++) {
        Object v = rs.getObject(i);
        // Integers arrive as Integer or Long depending on size or column type: one for callers.
        row.add(v instanceof Integer small ? Long.valueOf(small) : v);
      }
      rows.add(row);
    }
    return new QueryAnswer(new ResultTable(columns, rows), more);
  }
}
