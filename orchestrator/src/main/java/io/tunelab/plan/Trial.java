package io.tunelab.plan;

/**
 * One run of one cell, in plan order.
 *
 * @param cellOrdinal the cell's 1-based ordinal
 * @param rep 1-based repetition number within the cell, counted in run order (warm-ups first)
 * @param seq 1-based position in the whole plan
 * @param warmup whether the trial is a warm-up, recorded but left out of the statistics
 */
public record Trial(int cellOrdinal, int rep, int seq, boolean warmup) {}
