/**
 * The SQL both stores share, in JDBC: the migrations and the dialects they are spelled in, the
 * bundled SQL files, experiment uuids.
 */
package io.tunelab.store.sql;
