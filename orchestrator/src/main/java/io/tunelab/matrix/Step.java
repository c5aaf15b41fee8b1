package io.tunelab.matrix;

import io.tunelab.yaml.Position;

/**
 * A step: a shell command run on one role's host (setup, teardown, cell_setup, cell_teardown, or a
 * command before or after each trial). When {@code capture} is set, the basename of the last line
 * of its stdout becomes the variable of that name; with {@code captureList}, the basename of every
 * non-empty line, in order, becomes the list of that name.
 */
public record Step(String on, String run, String capture, boolean captureList, Position position) {}
