/**
 * The SQL both stores share, in JDBC: the migrations and the dialects they are spelled in, the
 * bundled SQL files, experiment uuids, the copy of an experiment, the backoff of a retried
 * transaction.
 */
package io.tunelab.store.sql;
