package io.tunelab.store;

/**
 * One finished trial's value of a metric, for a search deciding its next round.
 *
 * @param cellOrdinal the trial's cell
 * @param rep its repetition (a search's round)
 * @param value the metric's value; NaN when the trial failed, was flagged and left out, or did not
 *     measure it
 */
public record TrialValue(int cellOrdinal, int rep, double value) {}
