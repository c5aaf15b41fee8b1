/**
 * The store in a PostgreSQL database shared by many testbeds: the URL and its credentials found as
 * libpq finds them, the schema (the same migrations as SQLite's), imports and read-only queries.
 */
package io.tunelab.store.postgres;
