package io.tunelab.workload;

/**
 * One value of one interval row of a monitor, e.g. {@code t=2 device=sdb metric=util_pct}.
 *
 * @param t seconds since the monitor started, at the end of the interval the row covers (the first
 *     row kept is at one interval)
 * @param device the iostat device; {@code ""} for vmstat and mpstat
 */
public record MonitorRow(double t, String device, String metric, double value, String unit) {}
