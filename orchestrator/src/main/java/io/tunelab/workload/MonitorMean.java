package io.tunelab.workload;

/** A monitor metric's mean over one trial's interval rows, with how many rows it averages. */
public record MonitorMean(String device, String metric, double value, String unit, int rows) {}
