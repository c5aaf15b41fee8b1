package io.tunelab.knob;

/** Maps knob names to the files that hold them. */
public final class KnobCatalogue {
  private KnobCatalogue() {}

  /**
   * Parses a knob name (without role), e.g. {@code vm.dirty_ratio}.
   *
   * @throws IllegalArgumentException with a one-line message saying what is wrong and, where
   *     it can, what was meant
   */
  public static Knob parse(String name) {
    // STUB: replaced by the knob package's real catalogue.
    if (name.startsWith("vm.")) {
      return new Knob(name, "/proc/sys/vm/" + name.substring(3), Knob.Kind.SYSCTL, null);
    }
    String[] p = name.split("\\.");
    if (p.length == 3 && p[0].equals("block")) {
      return new Knob(name, "/sys/block/" + p[1] + "/queue/" + p[2], Knob.Kind.BLOCK_QUEUE, p[1]);
    }
    throw new IllegalArgumentException("unknown knob '" + name + "'");
  }
}
