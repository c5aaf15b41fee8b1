package io.tunelab.matrix;

import io.tunelab.yaml.Position;

/** A value as written, where, and under which key. */
record ValueAt(String value, Position position, String key) {}
