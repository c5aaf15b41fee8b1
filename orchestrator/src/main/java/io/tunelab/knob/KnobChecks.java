package io.tunelab.knob;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Preflight: whether a host can take the values an experiment will write, judged from the files
 * read before anything is touched. Messages are one line and start with the knob name.
 *
 * <p>An {@code iosched.*} file exists only while its scheduler is active. When the experiment
 * switches that device's scheduler, a missing iosched file cannot be judged here; it is checked
 * when the trial writes it, and a failed write fails that trial.
 */
public final class KnobChecks {
  private static final String SYSCTL_ROOT = "/proc/sys";

  private KnobChecks() {}

  /** Every file preflight must read for these knobs: their own and their related files. */
  public static List<String> pathsToRead(Collection<Knob> knobs) {
    Set<String> paths = new LinkedHashSet<>();
    for (Knob k : knobs) {
      paths.add(k.path());
      paths.addAll(KnobCatalogue.relatedPaths(k));
    }
    return List.copyOf(paths);
  }

  /**
   * Judges every value of every knob an experiment uses on one host.
   *
   * @param valuesByKnob each knob to all the values the experiment requests for it
   * @param reads what the host reported for {@link #pathsToRead} of those knobs
   * @return the problems, de-duplicated, in knob order; empty when the host is fit
   */
  public static List<String> checkAll(
      Map<Knob, ? extends Collection<String>> valuesByKnob, Map<String, ReadResult> reads) {
    return checkAll(valuesByKnob, reads, Map.of());
  }

  /**
   * As {@link #checkAll(Map, Map)}, and a sysctl that does not exist names the host's nearest one.
   *
   * @param listings the host's entries of the {@link #dirsToList} directories of the missing knobs
   *     (a directory that does not exist is absent)
   */
  public static List<String> checkAll(
      Map<Knob, ? extends Collection<String>> valuesByKnob,
      Map<String, ReadResult> reads,
      Map<String, ? extends Collection<String>> listings) {
    Set<String> problems = new LinkedHashSet<>();
    for (Map.Entry<Knob, ? extends Collection<String>> e : valuesByKnob.entrySet()) {
      Knob k = e.getKey();
      ReadResult own = reads.getOrDefault(k.path(), ReadResult.missing());
      boolean deferred =
          k.kind() == Knob.Kind.BLOCK_IOSCHED
              && !own.exists()
              && deviceExists(k, reads)
              && switchesScheduler(k.device(), valuesByKnob, reads);
      for (String value : e.getValue()) {
        Optional<String> problem =
            deferred ? KnobValues.validate(k, value) : check(k, value, own, reads);
        boolean absent = !own.exists() && KnobValues.validate(k, value).isEmpty();
        problem.map(p -> absent ? p + sysctlHint(k, listings) : p).ifPresent(problems::add);
      }
    }
    return List.copyOf(problems);
  }

  /**
   * Judges one value of one knob.
   *
   * @param own the knob's own file
   * @param related the files of {@link KnobCatalogue#relatedPaths} (others are ignored)
   * @return the problem, or empty when the value can be written
   */
  public static Optional<String> check(
      Knob k, String value, ReadResult own, Map<String, ReadResult> related) {
    Optional<String> syntax = KnobValues.validate(k, value);
    if (syntax.isPresent()) {
      return syntax;
    }
    if (own == null || !own.exists()) {
      return Optional.of(k.name() + ": " + missing(k, related));
    }
    if (own.state() == ReadResult.State.RO) {
      return Optional.of(k.name() + ": " + k.path() + " is read-only for the agent's user");
    }
    if (KnobValues.isDefault(value)) {
      return Optional.empty();
    }
    String v = KnobValues.normalize(k, value);
    if (k.kind() == Knob.Kind.BLOCK_SCHEDULER) {
      List<String> offered = KnobValues.available(k, own.raw());
      if (!offered.contains(v)) {
        String hint =
            Spelling.closest(v, offered).map(s -> "; did you mean '" + s + "'?").orElse("");
        return Optional.of(
            k.name()
                + ": scheduler '"
                + v
                + "' is not offered by "
                + k.device()
                + " (available: "
                + String.join(" ", offered)
                + hint
                + ")");
      }
    }
    if (k.kind() == Knob.Kind.BLOCK_QUEUE && KnobCatalogue.attribute(k).equals("max_sectors_kb")) {
      return exceedsHardware(
          k, v, related.get(KnobCatalogue.queuePath(k.device(), "max_hw_sectors_kb")));
    }
    return Optional.empty();
  }

  private static Optional<String> exceedsHardware(Knob k, String value, ReadResult hw) {
    if (hw == null || !hw.exists()) {
      return Optional.empty();
    }
    OptionalLong want = ValueRule.parseSize(KnobValues.kernelValue(k, value));
    OptionalLong limit = ValueRule.parseSize(hw.raw().strip());
    if (want.isPresent() && limit.isPresent() && want.getAsLong() > limit.getAsLong()) {
      return Optional.of(
          k.name()
              + ": "
              + want.getAsLong()
              + " exceeds max_hw_sectors_kb "
              + limit.getAsLong()
              + " of "
              + k.device());
    }
    return Optional.empty();
  }

  private static String missing(Knob k, Map<String, ReadResult> related) {
    switch (k.kind()) {
      case BLOCK_QUEUE, BLOCK_SCHEDULER, BLOCK_IOSCHED -> {
        if (!deviceExists(k, related)) {
          return "no block device '" + k.device() + "' (see /sys/block)";
        }
        if (k.kind() == Knob.Kind.BLOCK_IOSCHED) {
          ReadResult sched = related.get(KnobCatalogue.queuePath(k.device(), "scheduler"));
          if (sched != null && sched.exists()) {
            Knob schedKnob = KnobCatalogue.parse("block." + k.device() + ".scheduler");
            return k.path()
                + " does not exist: the active scheduler '"
                + KnobValues.normalize(schedKnob, sched.raw())
                + "' of "
                + k.device()
                + " has no '"
                + KnobCatalogue.attribute(k)
                + "'";
          }
        }
      }
      case BDI -> {
        ReadResult probe = related.get(KnobCatalogue.bdiPath(k.device(), "read_ahead_kb"));
        boolean absent =
            KnobCatalogue.attribute(k).equals("read_ahead_kb")
                || (probe != null && !probe.exists());
        if (absent) {
          return "no bdi device '" + k.device() + "' (see /sys/class/bdi)";
        }
      }
      case NFSD_THREADS -> {
        return k.path() + " does not exist (nfsd not loaded, or /proc/fs/nfsd not mounted)";
      }
      default -> {}
    }
    return k.path() + " does not exist";
  }

  /**
   * The directories to list for a hint when knob {@code k} does not exist: for a sysctl, each
   * directory from {@code /proc/sys/<family>} down to the knob's own ({@code /proc/sys/net}, {@code
   * /proc/sys/net/core} for {@code net.core.somaxconn}); for other knobs none.
   */
  public static List<String> dirsToList(Knob k) {
    if (!isSysctl(k)) {
      return List.of();
    }
    String[] parts = sysctlParts(k);
    List<String> dirs = new ArrayList<>();
    StringBuilder dir = new StringBuilder(SYSCTL_ROOT);
    for (int i = 0; i < parts.length - 1; i++) {
      dir.append('/').append(parts[i]);
      dirs.add(dir.toString());
    }
    return dirs;
  }

  /**
   * Ends the message of a sysctl that does not exist with the host's nearest name, from the host's
   * own directory listings: {@code " (did you mean 'net.core.somaxconn'?)"} for a misspelt last
   * part, {@code " (net has no 'cor'; did you mean 'net.core'?)"} for a misspelt directory, or
   * nothing when the listings suggest nothing.
   */
  static String sysctlHint(Knob k, Map<String, ? extends Collection<String>> listings) {
    if (!isSysctl(k)) {
      return "";
    }
    String[] parts = sysctlParts(k);
    StringBuilder dir = new StringBuilder(SYSCTL_ROOT + "/" + parts[0]);
    for (int i = 1; i < parts.length; i++) {
      Collection<String> entries = listings.get(dir.toString());
      if (entries == null) {
        return "";
      }
      if (!entries.contains(parts[i])) {
        String family = String.join(".", Arrays.copyOf(parts, i));
        Optional<String> meant = Spelling.closest(parts[i], entries);
        if (meant.isEmpty()) {
          return "";
        }
        if (i == parts.length - 1) {
          return " (did you mean '" + family + "." + meant.get() + "'?)";
        }
        return " ("
            + family
            + " has no '"
            + parts[i]
            + "'; did you mean '"
            + family
            + "."
            + meant.get()
            + "'?)";
      }
      dir.append('/').append(parts[i]);
    }
    return "";
  }

  private static boolean isSysctl(Knob k) {
    return k.kind() == Knob.Kind.SYSCTL && k.path().startsWith(SYSCTL_ROOT + "/");
  }

  /** A sysctl's path below /proc/sys, split: {@code net}, {@code core}, {@code somaxconn}. */
  private static String[] sysctlParts(Knob k) {
    return k.path().substring(SYSCTL_ROOT.length() + 1).split("/");
  }

  private static boolean deviceExists(Knob k, Map<String, ReadResult> reads) {
    ReadResult presence = reads.get(KnobCatalogue.devicePresencePath(k.device()));
    return presence == null || presence.exists();
  }

  /** Whether some value the experiment requests selects another scheduler than the active. */
  private static boolean switchesScheduler(
      String dev,
      Map<Knob, ? extends Collection<String>> valuesByKnob,
      Map<String, ReadResult> reads) {
    String path = KnobCatalogue.queuePath(dev, "scheduler");
    for (Map.Entry<Knob, ? extends Collection<String>> e : valuesByKnob.entrySet()) {
      Knob k = e.getKey();
      if (k.kind() != Knob.Kind.BLOCK_SCHEDULER || !k.path().equals(path)) {
        continue;
      }
      ReadResult now = reads.get(path);
      String active = now == null ? "" : KnobValues.normalize(k, now.raw());
      List<String> wanted = new ArrayList<>();
      for (String v : e.getValue()) {
        if (!KnobValues.isDefault(v)) {
          wanted.add(KnobValues.normalize(k, v));
        }
      }
      if (wanted.stream().anyMatch(w -> !w.equals(active))) {
        return true;
      }
    }
    return false;
  }
}
