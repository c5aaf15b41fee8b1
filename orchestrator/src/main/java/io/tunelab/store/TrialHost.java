package io.tunelab.store;

/** What one host ran during a trial (table {@code trial_hosts}). */
public record TrialHost(String host, String kernelRelease, String bootId, String cmdline) {}
