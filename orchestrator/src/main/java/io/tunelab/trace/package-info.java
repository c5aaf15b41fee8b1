/**
 * Beside the run: the phase trace the benchmarks read ({@code TUNELAB_TRACE}), each controller
 * phase and agent request of a trial with its duration.
 */
package io.tunelab.trace;
