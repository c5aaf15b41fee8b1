/** Stage plan of matrix → plan → run → agent → store → report: cells, trials and their order. */
package io.tunelab.plan;
