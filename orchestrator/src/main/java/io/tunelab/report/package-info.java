/** Stage report of matrix → plan → run → agent → store → report: tables, comparisons, exports. */
package io.tunelab.report;
