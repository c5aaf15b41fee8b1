package io.tunelab.knob;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Decides what one {@code apply} request to one host contains for one trial: which files to
 * journal, which to write in which order, and which to read back. docs/knobs.md explains the rules
 * in user terms.
 *
 * <p>Paths map to values in two maps, both normalized ({@link KnobValues#normalize}): {@code
 * originals} (what the host had when the experiment started, for every knob file and pair partner
 * that existed), {@code current} (what the host is believed to hold now, from the previous trial's
 * read-back via {@link #afterApply}; empty before the first trial, and may be emptied to distrust
 * it after a failed apply). A scheduler-owned file ({@code iosched.*}, {@code nr_requests}) missing
 * from {@code current} is taken to hold its scheduler's fresh default; present, it holds a value
 * tunelab wrote.
 */
public final class ApplyPlanner {
  private ApplyPlanner() {}

  /**
   * Why these knob values cannot be applied together, or empty: both members of an exclusive pair
   * set explicitly. The matrix cannot see this (the members may come from different axes), so the
   * runner reports it at preflight.
   */
  public static Optional<String> conflicts(Map<Knob, String> requested) {
    for (ExclusivePair pair : ExclusivePair.all()) {
      String bytes = requestedFor(requested, pair.bytes());
      String ratio = requestedFor(requested, pair.ratio());
      if (bytes != null
          && ratio != null
          && !KnobValues.isDefault(bytes)
          && !KnobValues.isDefault(ratio)) {
        return Optional.of(
            pair.bytes().name()
                + "="
                + bytes.strip()
                + " and "
                + pair.ratio().name()
                + "="
                + ratio.strip()
                + " exclude each other: the kernel keeps only the one written last, so a cell may"
                + " set one of them (the other must be default)");
      }
    }
    return Optional.empty();
  }

  /**
   * The payload of one trial's {@code apply} request: saves (first apply only), then writes in
   * kernel order, then read-backs of every requested file not written.
   *
   * @param requested every knob the experiment uses on this host, to this trial's value or {@code
   *     default}; iteration order breaks ties between knobs the kernel does not order
   * @param first whether this is the experiment's first apply on this host (journals then)
   * @throws IllegalArgumentException when {@link #conflicts} finds a problem
   */
  public static List<ApplyLine> plan(
      Map<Knob, String> requested,
      Map<String, String> originals,
      Map<String, String> current,
      boolean first) {
    Optional<String> conflict = conflicts(requested);
    if (conflict.isPresent()) {
      throw new IllegalArgumentException(conflict.get());
    }
    return new Decisions(requested, originals, current, first).lines();
  }

  /**
   * What the host holds after an apply, from its read-back: the next trial's {@code current}.
   *
   * @param effective path to the value the agent read back ({@code eff} lines), raw or normalized
   */
  public static Map<String, String> afterApply(
      Map<String, String> current, List<ApplyLine> lines, Map<String, String> effective) {
    Map<String, String> next = new HashMap<>(current);
    for (ApplyLine line : lines) {
      if (line.op() == ApplyLine.Op.SET) {
        next.keySet().removeIf(path -> KernelRules.invalidates(line.knob(), path));
      }
    }
    for (ApplyLine line : lines) {
      if (line.op() != ApplyLine.Op.SET && line.op() != ApplyLine.Op.CHECK) {
        continue;
      }
      String eff = effective.get(line.path());
      // A CHECK expecting nothing in particular reads a fresh default: leave it absent, so a
      // later default request knows it need not be reset.
      if (eff == null || (line.op() == ApplyLine.Op.CHECK && line.value() == null)) {
        next.remove(line.path());
      } else {
        next.put(line.path(), KnobValues.normalize(line.knob(), eff));
      }
    }
    return next;
  }

  /**
   * The {@code originals} map from preflight's reads: every existing knob file and pair partner,
   * normalized.
   */
  public static Map<String, String> originals(
      Collection<Knob> knobs, Map<String, ReadResult> reads) {
    Map<String, String> originals = new LinkedHashMap<>();
    for (Knob k : knobs) {
      List<Knob> files = new ArrayList<>(List.of(k));
      ExclusivePair.containing(k).ifPresent(p -> files.add(p.other(k)));
      for (Knob f : files) {
        ReadResult r = reads.get(f.path());
        if (r != null && r.exists()) {
          originals.put(f.path(), KnobValues.normalize(f, r.raw()));
        }
      }
    }
    return originals;
  }

  private static String requestedFor(Map<Knob, String> requested, Knob k) {
    for (Map.Entry<Knob, String> e : requested.entrySet()) {
      if (e.getKey().path().equals(k.path())) {
        return e.getValue();
      }
    }
    return null;
  }

  /** The decisions for one trial; {@code known} tracks what the host holds as writes queue up. */
  private static final class Decisions {
    private final Map<Knob, String> requested;
    private final Map<String, String> originals;
    private final Map<String, String> known;
    private final Map<String, String> targetScheduler = new HashMap<>();
    private final List<ApplyLine> sets = new ArrayList<>();
    private final List<ApplyLine> checks = new ArrayList<>();
    private final boolean first;

    Decisions(
        Map<Knob, String> requested,
        Map<String, String> originals,
        Map<String, String> current,
        boolean first) {
      for (Map.Entry<Knob, String> e : requested.entrySet()) {
        if (e.getValue() == null) {
          throw new IllegalArgumentException(e.getKey().name() + ": no requested value");
        }
      }
      this.requested = requested;
      this.originals = originals;
      this.known = new HashMap<>(current);
      this.first = first;
    }

    List<ApplyLine> lines() {
      List<Knob> order = KernelRules.writeOrder(requested.keySet());
      List<ApplyLine> lines = new ArrayList<>();
      if (first) {
        lines.addAll(saves(order));
      }
      Set<ExclusivePair> donePairs = new HashSet<>();
      for (Knob k : order) {
        Optional<ExclusivePair> pair = ExclusivePair.containing(k);
        if (pair.isPresent()) {
          if (donePairs.add(pair.get())) {
            pair(pair.get());
          }
        } else if (k.kind() == Knob.Kind.BLOCK_SCHEDULER) {
          scheduler(k, requested.get(k));
        } else {
          single(k, requested.get(k));
        }
      }
      lines.addAll(sets);
      lines.addAll(checks);
      return lines;
    }

    /**
     * Journal order is restore order: in write order a scheduler is journaled before the files it
     * recreates, so a restore selects the original scheduler before writing its iosched values and
     * nr_requests back.
     */
    private List<ApplyLine> saves(List<Knob> order) {
      List<ApplyLine> saves = new ArrayList<>();
      Set<ExclusivePair> pairs = new HashSet<>();
      for (Knob k : order) {
        Optional<ExclusivePair> pair = ExclusivePair.containing(k);
        if (pair.isEmpty()) {
          saves.add(ApplyLine.save(k));
        } else if (pairs.add(pair.get())) {
          saves.add(ApplyLine.savePair(pair.get()));
        }
      }
      return saves;
    }

    private void scheduler(Knob k, String value) {
      String original = original(k);
      String desired = KnobValues.isDefault(value) ? original : KnobValues.kernelValue(k, value);
      if (desired == null) {
        checks.add(ApplyLine.check(k, null));
        return;
      }
      targetScheduler.put(k.device(), desired);
      boolean selected = holds(k, desired);
      // Unknown after a failed apply: the scheduler may already be the desired one.
      boolean unknown = !first && !known.containsKey(k.path());
      if ((selected || unknown) && needsFreshDefaults(k.device(), desired, original, unknown)) {
        // Re-selecting the active scheduler changes nothing; passing through another one
        // (the original, surely offered) recreates its iosched files and nr_requests.
        String via = original != null && !original.equals(desired) ? original : "none";
        write(k, via);
        selected = false;
      }
      if (selected) {
        checks.add(ApplyLine.check(k, desired));
      } else {
        write(k, desired);
      }
    }

    /**
     * Whether a knob this trial leaves at its scheduler's default holds a value we wrote, or (when
     * the device's state is unknown) may hold one.
     */
    private boolean needsFreshDefaults(
        String dev, String desired, String original, boolean unknown) {
      if (Objects.equals(desired, original)) {
        return false;
      }
      for (Map.Entry<Knob, String> e : requested.entrySet()) {
        Knob k = e.getKey();
        if (dev.equals(k.device())
            && KernelRules.ownedByScheduler(k)
            && KnobValues.isDefault(e.getValue())
            && (unknown || known.containsKey(k.path()))) {
          return true;
        }
      }
      return false;
    }

    private void single(Knob k, String value) {
      String desired;
      if (!KnobValues.isDefault(value)) {
        desired = KnobValues.kernelValue(k, value);
      } else if (followsScheduler(k)) {
        desired = null; // whatever the newly selected scheduler starts with
      } else {
        desired = original(k);
      }
      if (desired == null) {
        checks.add(ApplyLine.check(k, null));
      } else if (holds(k, desired)) {
        checks.add(ApplyLine.check(k, desired));
      } else {
        write(k, desired);
      }
    }

    /** A scheduler-owned knob's default under a scheduler other than the original. */
    private boolean followsScheduler(Knob k) {
      if (!KernelRules.ownedByScheduler(k) || !targetScheduler.containsKey(k.device())) {
        return false;
      }
      Knob sched = KnobCatalogue.parse("block." + k.device() + ".scheduler");
      return !Objects.equals(targetScheduler.get(k.device()), original(sched));
    }

    /**
     * Writes only the member this trial wants active: the one set explicitly, or for two defaults
     * the one that was active at the start, at its original value.
     */
    private void pair(ExclusivePair pair) {
      String bytes = requestedFor(requested, pair.bytes());
      String ratio = requestedFor(requested, pair.ratio());
      Knob member;
      String value;
      if (bytes != null && !KnobValues.isDefault(bytes)) {
        member = pair.bytes();
        value = KnobValues.kernelValue(member, bytes);
      } else if (ratio != null && !KnobValues.isDefault(ratio)) {
        member = pair.ratio();
        value = KnobValues.kernelValue(member, ratio);
      } else {
        String originalBytes = original(pair.bytes());
        String originalRatio = original(pair.ratio());
        if (originalBytes == null && originalRatio == null) {
          throw new IllegalArgumentException(
              "no original value of " + pair.bytes().name() + " or " + pair.ratio().name());
        }
        member = originalBytes != null && !isZero(originalBytes) ? pair.bytes() : pair.ratio();
        value = member.equals(pair.bytes()) ? originalBytes : originalRatio;
        if (value == null) {
          throw new IllegalArgumentException("no original value of " + member.name());
        }
      }
      Knob other = pair.other(member);
      boolean otherZero = known.containsKey(other.path()) && isZero(known.get(other.path()));
      if (holds(member, value) && otherZero) {
        checks.add(ApplyLine.check(member, value));
      } else {
        boolean mayBeNoOp = !known.containsKey(member.path()) || holds(member, value);
        if (member.equals(pair.ratio()) && isZero(value) && mayBeNoOp) {
          // The kernel zeroes the bytes member only when the ratio changes; from 0 to 0
          // it does not, so step through 1.
          write(member, "1");
        }
        write(member, value);
      }
      checks.add(ApplyLine.check(other, "0"));
    }

    private void write(Knob k, String value) {
      sets.add(ApplyLine.set(k, value));
      known.keySet().removeIf(path -> KernelRules.invalidates(k, path));
      known.put(k.path(), value);
    }

    private boolean holds(Knob k, String value) {
      String now = known.get(k.path());
      return now != null && KnobValues.agreement(k, value, now) != KnobValues.Agreement.DIFFERENT;
    }

    private String original(Knob k) {
      String o = originals.get(k.path());
      return o == null ? null : KnobValues.canonical(k, o);
    }

    private static boolean isZero(String v) {
      return v.strip().matches("0+");
    }
  }
}
