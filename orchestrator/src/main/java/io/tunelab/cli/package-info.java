/** The command line over every stage: matrix → plan → run → agent → store → report. */
package io.tunelab.cli;
