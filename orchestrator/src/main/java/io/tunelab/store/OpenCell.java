package io.tunelab.store;

import java.util.Map;

/** A cell set up and not yet torn down: its ordinal and its {@code cell_setup} captures. */
public record OpenCell(int cellOrdinal, Map<String, String> captures) {}
