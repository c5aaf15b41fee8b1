/**
 * tunelab: kernel tunable experiments run unattended, matrix → plan → run → agent → store → report
 * (docs/architecture.md); here only what every stage shares: {@link io.tunelab.TunelabException},
 * the one exception type, which every stage throws with its exit code, the pauses of a retry, and
 * how numbers and instants are written.
 */
package io.tunelab;
