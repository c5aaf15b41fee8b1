/**
 * The store in an SQLite file: schema and migrations, transactions, writers, readers, and the side
 * files of trial commits a full disk refused. The only package that speaks JDBC.
 */
package io.tunelab.store.sqlite;
