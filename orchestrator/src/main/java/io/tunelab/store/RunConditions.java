package io.tunelab.store;

import java.util.Map;

/**
 * What an experiment's hosts were and had, for the list of what differs between two sides of a
 * comparison.
 *
 * @param facts by host name, every fact its agent reported ({@code host_facts}), by key
 * @param knobs by cell ordinal, each knob its ok, measured trials ran with, to its value: the
 *     effective value read back ({@code settings}; distinct values joined by {@code ", "}), else
 *     the requested one. A knob is named as the matrix writes it ({@code
 *     local.block.${dev}.read_ahead_kb}) where the cell sets it, so that whatever device each run
 *     got the names match, else by role and resolved name ({@code server.block.sdb.read_ahead_kb}).
 */
public record RunConditions(
    Map<String, Map<String, String>> facts, Map<Integer, Map<String, String>> knobs) {
  /** Nothing recorded. */
  public static final RunConditions NONE = new RunConditions(Map.of(), Map.of());

  public RunConditions {
    facts = Map.copyOf(facts);
    knobs = Map.copyOf(knobs);
  }
}
