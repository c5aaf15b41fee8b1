package io.tunelab.store.sql;

import java.sql.Connection;
import java.sql.SQLException;

/** A database experiments are imported into: its engine, and a transaction on it. */
public interface ImportTarget {
  /** Work done in one transaction of the target. */
  interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  /** The engine, for the words of the copy. */
  SqlDialect dialect();

  /** Runs {@code work} in one write transaction, retried whole if the engine asks for it. */
  <T> T write(String what, Work<T> work);

  /**
   * Readies the target for one experiment's rows, inside the transaction: keeps other writers of
   * the tables whose ids the copy chooses out until it commits.
   */
  void lockForCopy(Connection c) throws SQLException;

  /** After rows were inserted with ids of their own: the engine's next id comes after them. */
  void idsTaken(Connection c, String table) throws SQLException;
}
