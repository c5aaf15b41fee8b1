package io.tunelab.store;

/** One knob on one host as this trial ran it. */
public record SettingRow(
    String role,
    String host,
    String knob,
    String path,
    String requested,
    String effective,
    String original,
    boolean written) {}
