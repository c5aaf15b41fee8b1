package io.tunelab.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.TunelabException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteTransactionsTest {
  @TempDir Path dir;

  /** Another process's writer, holding the write lock for {@code millis}. */
  private static Thread holdWriteLock(Path file, long millis, CountDownLatch held) {
    Thread t =
        new Thread(
            () -> {
              try (Connection other = SqliteConnections.openWritable(file);
                  Statement st = other.createStatement()) {
                other.setAutoCommit(false);
                st.execute("INSERT INTO t VALUES (0)");
                held.countDown();
                Thread.sleep(millis);
                other.commit();
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    t.start();
    return t;
  }

  private SqliteTransactions open(Path file, Duration budget) throws Exception {
    Connection c = SqliteConnections.openWritable(file);
    try (Statement st = c.createStatement()) {
      st.execute("PRAGMA busy_timeout = 100");
      st.execute("CREATE TABLE IF NOT EXISTS t (x INTEGER)");
    }
    return new SqliteTransactions(file, c, budget);
  }

  @Test
  void aWriteWaitsOutAnotherWriterLongerThanTheBusyTimeout() throws Exception {
    Path file = dir.resolve("t.db");
    try (SqliteTransactions tx = open(file, Duration.ofSeconds(20))) {
      CountDownLatch held = new CountDownLatch(1);
      Thread other = holdWriteLock(file, 1500, held);
      held.await();

      tx.transaction("insert", c -> c.createStatement().executeUpdate("INSERT INTO t VALUES (1)"));

      int rows =
          tx.transaction(
              "count",
              c -> {
                try (ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM t")) {
                  rs.next();
                  return rs.getInt(1);
                }
              });
      assertEquals(2, rows);
      other.join();
    }
  }

  @Test
  void pastItsBudgetABusyDatabaseIsTheEnvironmentsFault() throws Exception {
    Path file = dir.resolve("t.db");
    try (SqliteTransactions tx = open(file, Duration.ofMillis(300))) {
      CountDownLatch held = new CountDownLatch(1);
      Thread other = holdWriteLock(file, 3000, held);
      held.await();

      TunelabException e =
          assertThrows(
              TunelabException.class,
              () ->
                  tx.transaction(
                      "insert",
                      c -> c.createStatement().executeUpdate("INSERT INTO t VALUES (1)")));

      assertEquals(TunelabException.HOST_REFUSED, e.exitCode());
      assertTrue(e.getMessage().contains("another process holds the database"), e.getMessage());
      other.join();
    }
  }

  @Test
  void pastItsBudgetABusyDatabaseIsAStorageFailureSoATrialIsKeptAside() throws Exception {
    Path file = dir.resolve("t.db");
    try (SqliteTransactions tx = open(file, Duration.ofMillis(300))) {
      CountDownLatch held = new CountDownLatch(1);
      Thread other = holdWriteLock(file, 3000, held);
      held.await();

      StorageFailure e =
          assertThrows(
              StorageFailure.class,
              () ->
                  tx.transaction(
                      "insert",
                      c -> c.createStatement().executeUpdate("INSERT INTO t VALUES (1)")));

      assertEquals("stop the process that holds the database", e.remedy());
      other.join();
    }
  }

  @Test
  void aFullDiskIsReportedAsSuchNotAsTheRollbackSQLiteAlreadyDid() throws Exception {
    Path file = dir.resolve("t.db");
    try (SqliteTransactions tx = open(file, Duration.ofSeconds(1))) {
      tx.autocommit(
          c -> {
            try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("PRAGMA page_count")) {
              rs.next();
              return st.execute("PRAGMA max_page_count = " + rs.getLong(1));
            }
          });

      TunelabException e =
          assertThrows(
              TunelabException.class,
              () ->
                  tx.transaction(
                      "insert",
                      c ->
                          c.createStatement()
                              .executeUpdate(
                                  "INSERT INTO t WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL"
                                      + " SELECT i + 1 FROM n WHERE i < 100000) SELECT i FROM n")));

      assertTrue(e instanceof StorageFailure, e.toString());
      assertEquals(TunelabException.HOST_REFUSED, e.exitCode());
      assertTrue(e.getMessage().contains("database or disk is full"), e.getMessage());
    }
  }

  @Test
  void keysCheckedByTheWorkItselfAreOffForItAndOnAgainAfterItFails() throws Exception {
    try (SqliteTransactions tx = open(dir.resolve("k.db"), Duration.ofSeconds(1))) {
      assertEquals(
          "keys were 0",
          assertThrows(
                  IllegalStateException.class,
                  () ->
                      tx.transactionCheckingKeysItself(
                          "bulk",
                          c -> {
                            throw new IllegalStateException("keys were " + foreignKeys(c));
                          }))
              .getMessage());
      assertEquals(1, (int) tx.transaction("read", SqliteTransactionsTest::foreignKeys));
    }
  }

  private static int foreignKeys(Connection c) throws java.sql.SQLException {
    try (ResultSet rs = c.createStatement().executeQuery("PRAGMA foreign_keys")) {
      return rs.getInt(1);
    }
  }
}
