package io.tunelab.knob;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Side effects of writes the kernel performs on its own, and the write order they dictate.
 * Selecting an I/O scheduler recreates {@code queue/iosched/} and resets {@code nr_requests};
 * {@code nr_requests} recomputes depth-derived iosched values (mq-deadline's {@code async_depth});
 * {@code wbt_lat_usec} is switched off by bfq's selection; and some kernels recompute read-ahead
 * when queue limits such as {@code max_sectors_kb} change.
 */
final class KernelRules {
  private KernelRules() {}

  /** Knobs sorted into write order; knobs of equal rank keep the given order. */
  static List<Knob> writeOrder(Collection<Knob> knobs) {
    List<Knob> sorted = new ArrayList<>(knobs);
    sorted.sort(Comparator.comparingInt(KernelRules::rank));
    return sorted;
  }

  /**
   * Scheduler, then the limits other values depend on, then the rest of the queue, then iosched.
   */
  static int rank(Knob k) {
    String attr = KnobCatalogue.attribute(k);
    return switch (k.kind()) {
      case BLOCK_SCHEDULER -> 0;
      case BLOCK_QUEUE -> attr.equals("max_sectors_kb") ? 1 : attr.equals("nr_requests") ? 2 : 3;
      case BLOCK_IOSCHED -> 4;
      default -> 5;
    };
  }

  /**
   * Knobs whose value belongs to the active scheduler: a scheduler switch replaces them with the
   * new scheduler's own defaults, so their {@code default} follows the scheduler.
   */
  static boolean ownedByScheduler(Knob k) {
    return k.kind() == Knob.Kind.BLOCK_IOSCHED
        || (k.kind() == Knob.Kind.BLOCK_QUEUE && KnobCatalogue.attribute(k).equals("nr_requests"));
  }

  /** Whether writing {@code written} may change the file at {@code path} as a side effect. */
  static boolean invalidates(Knob written, String path) {
    if (written.device() == null || written.kind() == Knob.Kind.BDI) {
      return false;
    }
    String dev = written.device();
    String iosched = "/sys/block/" + dev + "/queue/iosched/";
    if (written.kind() == Knob.Kind.BLOCK_SCHEDULER) {
      return path.startsWith(iosched)
          || path.equals(KnobCatalogue.queuePath(dev, "nr_requests"))
          || path.equals(KnobCatalogue.queuePath(dev, "wbt_lat_usec"));
    }
    String attr = KnobCatalogue.attribute(written);
    if (written.kind() == Knob.Kind.BLOCK_QUEUE && attr.equals("nr_requests")) {
      return path.startsWith(iosched);
    }
    if (written.kind() == Knob.Kind.BLOCK_QUEUE && attr.equals("max_sectors_kb")) {
      return path.equals(KnobCatalogue.queuePath(dev, "read_ahead_kb"));
    }
    return false;
  }
}
