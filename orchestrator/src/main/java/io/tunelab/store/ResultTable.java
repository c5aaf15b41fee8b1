package io.tunelab.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The result of one query: column names and rows of values, each a {@code Long}, {@code Double},
 * {@code String}, {@code byte[]} or {@code null}.
 */
public record ResultTable(List<String> columns, List<List<Object>> rows) {
  public ResultTable {
    columns = List.copyOf(columns);
    List<List<Object>> copy = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      if (row.size() != columns.size()) {
        throw new IllegalArgumentException(
            "a row has " + row.size() + " values for " + columns.size() + " columns");
      }
      // Values may be null, which List.copyOf refuses.
      copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
    }
    rows = Collections.unmodifiableList(copy);
  }
}
