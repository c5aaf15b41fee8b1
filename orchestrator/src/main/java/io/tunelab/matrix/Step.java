package io.tunelab.matrix;

import io.tunelab.yaml.Position;

/**
 * A setup or teardown step: a shell command run on one role's host. When {@code capture} is set,
 * the basename of the last line of its stdout becomes the variable of that name.
 */
public record Step(String on, String run, String capture, Position position) {}
