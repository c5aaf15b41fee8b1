package io.tunelab.store;

/**
 * A tool's raw output kept with the trial.
 *
 * @param process the process it came from ({@code reader.0})
 * @param kind what it is, e.g. {@code fio-json}
 */
public record TrialOutput(String process, String kind, String text) {}
