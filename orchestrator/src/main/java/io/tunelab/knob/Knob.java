package io.tunelab.knob;

/**
 * A kernel tunable by its sysctl-like name and the file that holds it.
 *
 * @param name e.g. {@code block.loop3.read_ahead_kb}, {@code vm.dirty_ratio}
 * @param path e.g. {@code /sys/block/loop3/queue/read_ahead_kb}
 * @param device the block or bdi device for {@code block.*} and {@code bdi.*}, else null
 */
public record Knob(String name, String path, Kind kind, String device) {

  /** The families of the catalogue; rules (ordering, exclusion, value checks) key on them. */
  public enum Kind {
    SYSCTL,
    BLOCK_QUEUE,
    BLOCK_SCHEDULER,
    BLOCK_IOSCHED,
    BDI,
    NFSD_THREADS,
    SYSFS,
    PROC
  }
}
