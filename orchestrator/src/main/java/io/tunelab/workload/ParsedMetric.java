package io.tunelab.workload;

/** One value a parser read from a job's output, e.g. {@code read_iops 13344.7 IO/s}. */
public record ParsedMetric(String name, double value, String unit) {}
