package io.tunelab.knob;

import java.util.List;
import java.util.Optional;

/**
 * Two sysctls of which the kernel keeps only one active: writing {@code vm.dirty_bytes} zeroes
 * {@code vm.dirty_ratio} and vice versa (likewise the background pair, and {@code
 * vm.overcommit_kbytes} with {@code vm.overcommit_ratio}). The active member is {@code bytes} when
 * it is non-zero, else {@code ratio}.
 */
public record ExclusivePair(Knob bytes, Knob ratio) {
  private static final List<ExclusivePair> ALL =
      List.of(
          pair("dirty_bytes", "dirty_ratio"),
          pair("dirty_background_bytes", "dirty_background_ratio"),
          pair("overcommit_kbytes", "overcommit_ratio"));

  /** Every exclusive pair the catalogue knows. */
  public static List<ExclusivePair> all() {
    return ALL;
  }

  /** The pair {@code k} belongs to, if any. */
  public static Optional<ExclusivePair> containing(Knob k) {
    return ALL.stream().filter(p -> p.contains(k)).findFirst();
  }

  /** Whether {@code k} is one of the two members (compared by path). */
  public boolean contains(Knob k) {
    return bytes.path().equals(k.path()) || ratio.path().equals(k.path());
  }

  /** The member that is not {@code k}. */
  public Knob other(Knob k) {
    return bytes.path().equals(k.path()) ? ratio : bytes;
  }

  private static ExclusivePair pair(String bytes, String ratio) {
    return new ExclusivePair(sysctlVm(bytes), sysctlVm(ratio));
  }

  private static Knob sysctlVm(String leaf) {
    return new Knob("vm." + leaf, "/proc/sys/vm/" + leaf, Knob.Kind.SYSCTL, null);
  }
}
