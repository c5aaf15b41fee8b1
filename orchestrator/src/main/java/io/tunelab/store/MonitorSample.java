package io.tunelab.store;

/**
 * One value of one interval row of a monitor on a host.
 *
 * @param monitor {@code vmstat}, {@code iostat} or {@code mpstat}
 * @param device the iostat device, {@code ""} otherwise
 * @param t seconds since the monitor started, at the end of the row's interval
 */
public record MonitorSample(
    String host, String monitor, String device, double t, String metric, double value) {}
