package io.tunelab.matrix;

import io.tunelab.yaml.Position;

/**
 * One knob set by the file, where it is written: a settings entry, a knob axis, or a case entry.
 *
 * @param knob the role-qualified knob as written
 * @param owner who sets it, for messages: {@code settings}, {@code axis 'x'}, {@code case 'c' of
 *     axis 'case'}
 * @param group knobs of the same group and different {@code option} never meet in one cell
 * @param option the case name within a cases axis, else empty
 */
record KnobSetting(
    String knob, Position position, String key, String owner, String group, String option) {}
