package io.tunelab.workload;

/**
 * A monitor metric over one trial: the mean of its interval rows, with how many rows it averages,
 * or a trial-wide figure from the kernel's counters ({@code rows} 0).
 */
public record MonitorMean(String device, String metric, double value, String unit, int rows) {}
