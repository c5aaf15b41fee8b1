package io.tunelab.store;

import java.util.List;

/**
 * One row of a per-trial table ({@link TrialTable}) as {@code tunelab export} writes it: its trial
 * and cell, then its own values in the table's column order, each a {@code Long}, {@code Double},
 * {@code String}, {@code Boolean} or null.
 */
public record TrialRow(ExportedTrial trial, List<Object> values) {}
