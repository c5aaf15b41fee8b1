/** Stage store of matrix → plan → run → agent → store → report: results and their SQLite file. */
package io.tunelab.store;
