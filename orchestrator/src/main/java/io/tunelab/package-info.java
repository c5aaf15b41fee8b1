/**
 * tunelab: kernel tunable experiments run unattended, matrix → plan → run → agent → store → report
 * (docs/architecture.md); here only {@link io.tunelab.TunelabException}, the one exception type,
 * which every stage throws with its exit code.
 */
package io.tunelab;
