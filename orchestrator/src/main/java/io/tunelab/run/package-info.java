/** Stage run of matrix → plan → run → agent → store → report: trials, restore, teardown. */
package io.tunelab.run;
