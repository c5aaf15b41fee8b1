/** Statistics for the store and report stages of matrix → plan → run → agent → store → report. */
package io.tunelab.stats;
