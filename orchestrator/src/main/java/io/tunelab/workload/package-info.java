/** Stage run of matrix → plan → run → agent → store → report: workload jobs and samples. */
package io.tunelab.workload;
