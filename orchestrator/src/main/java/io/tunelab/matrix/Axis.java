package io.tunelab.matrix;

import io.tunelab.yaml.Position;
import java.util.List;
import java.util.Map;

/**
 * One axis of the matrix, crossed with the others in declared order.
 *
 * <p>A {@code PARAMETER} axis has plain values ({@code bs: [64M, 1M]}); a {@code KNOB} axis has a
 * role-qualified knob as its name and values written to that knob; a {@code CASES} axis has named
 * cases, each a map of knobs and parameters ({@code cases} keeps their order).
 *
 * @param name the key as written in the file, e.g. {@code disk.block.${dev}.read_ahead_kb}
 * @param label the short name used in labels and reports, e.g. {@code read_ahead_kb}
 * @param values the values (for {@code CASES}: the case names), in declared order
 * @param cases for {@code CASES}: case name to its entries (knob or parameter to value)
 */
public record Axis(
    String name,
    String label,
    Kind kind,
    List<String> values,
    Map<String, Map<String, String>> cases,
    Position position) {

  /** What an axis varies. */
  public enum Kind {
    PARAMETER,
    KNOB,
    CASES
  }
}
