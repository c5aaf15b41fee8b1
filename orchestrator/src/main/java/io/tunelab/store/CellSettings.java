package io.tunelab.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one cell of an experiment set on its hosts, for {@code tunelab settings}: the values its
 * last ok trial applied, the cell's parameters, and each host's facts (its disks' stable names).
 *
 * @param ordinal the cell's number, as reports show it
 * @param winner true when the cell is the winner of a search
 * @param params the cell's axis values, as the matrix writes the axes, in axis order
 * @param settings what the cell's last ok, measured trial applied, by role and resolved knob
 * @param facts by host, the facts its agent reported
 */
public record CellSettings(
    long experimentId,
    String experimentName,
    int ordinal,
    String label,
    boolean winner,
    Map<String, String> params,
    List<Setting> settings,
    Map<String, Map<String, String>> facts) {

  /**
   * One knob of the cell on one host.
   *
   * @param knob the resolved name ({@code block.sdb.read_ahead_kb}, {@code vm.dirty_ratio})
   * @param path the file written ({@code /sys/block/sdb/queue/read_ahead_kb})
   * @param value the value asked for; {@code default} leaves the host's own
   */
  public record Setting(String role, String host, String knob, String path, String value) {}

  public CellSettings {
    params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
    settings = List.copyOf(settings);
    facts = Map.copyOf(facts);
  }
}
