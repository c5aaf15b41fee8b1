package io.tunelab.store;

/** One sample as {@code tunelab export} writes it: its trial and cell, then the sample. */
public record SampleRow(
    ExportedTrial trial, String job, String metric, Double value, String unit) {}
