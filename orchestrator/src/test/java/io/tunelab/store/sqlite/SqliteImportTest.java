package io.tunelab.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.store.Fixtures;
import io.tunelab.store.sql.ExperimentCopy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link ExperimentCopy} copies: every table of the schema that an experiment owns rows in.
 */
class SqliteImportTest {
  @TempDir Path dir;

  @Test
  void everyTableOfTheSchemaIsCopiedOrBelongsToNoExperiment() throws SQLException {
    Path db = dir.resolve("t.db");
    JdbcResultStore.open(db, Fixtures.CLOCK).close();
    TreeSet<String> schema = new TreeSet<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
      while (rs.next()) {
        schema.add(rs.getString(1));
      }
    }
    TreeSet<String> known = new TreeSet<>(ExperimentCopy.NOT_COPIED);
    ExperimentCopy.TABLES.forEach(t -> known.add(t.name()));
    // A table a migration adds is an experiment's data an import would silently drop.
    assertEquals(schema, known, "add the new table to ExperimentCopy.TABLES (or NOT_COPIED)");
  }
}
