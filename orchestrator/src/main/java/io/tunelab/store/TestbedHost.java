package io.tunelab.store;

/**
 * One host of the testbed an experiment ran on, as its controller reached it.
 *
 * @param host the inventory's name for it
 * @param address {@code ADDRESS:PORT}, or {@code local@HOST} for the controller itself
 * @param hostKey the fingerprint ({@code SHA256:…}) of the SSH host key it presented; null for
 *     {@code local}
 */
public record TestbedHost(String role, String host, String address, String hostKey) {}
