package io.tunelab.knob;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Knobs that are one setting under two names, judged from what preflight read: two names that lead
 * to one file (symlinks resolved by the agent), a bdi's read-ahead and its block device's; and, on
 * hosts that run one kernel (one boot id), knobs of two hosts that one write changes together.
 * Journaled twice, such a setting would be restored to whichever original came back last.
 */
public final class Aliases {
  /** The kernel's id for this boot: two hosts that read the same one are one kernel. */
  public static final String BOOT_ID = "/proc/sys/kernel/random/boot_id";

  private static final Pattern BDI_READ_AHEAD = Pattern.compile(".*/bdi/(\\d+:\\d+)/read_ahead_kb");
  private static final Pattern MAJOR_MINOR = Pattern.compile("\\d+:\\d+");

  private Aliases() {}

  /** Problems with knobs of one host that name one setting twice, one line each. */
  public static List<String> within(Collection<Knob> knobs, Map<String, ReadResult> reads) {
    Map<String, Knob> seen = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (Knob k : knobs) {
      for (Unit u : units(k, reads, false)) {
        Knob first = seen.putIfAbsent(u.key(), k);
        if (first != null && !first.name().equals(k.name())) {
          problems.add(first.name() + " and " + k.name() + " " + u.what() + ": name it once");
          break;
        }
      }
    }
    return problems;
  }

  /**
   * Problems with hosts that run one kernel and whose knobs touch one setting, each starting with
   * {@code host NAME: } of the later host. {@code net.*} knobs are left out: they belong to a
   * network namespace, and hosts of one kernel may each have their own.
   *
   * @param knobsByHost each host's knobs
   * @param reads each host's reads, {@link #BOOT_ID} among them
   */
  public static List<String> across(
      Map<String, ? extends Collection<Knob>> knobsByHost,
      Map<String, Map<String, ReadResult>> reads) {
    Map<String, List<String>> byBoot = new LinkedHashMap<>();
    knobsByHost
        .keySet()
        .forEach(
            h ->
                bootId(reads.get(h))
                    .ifPresent(b -> byBoot.computeIfAbsent(b, x -> new ArrayList<>()).add(h)));
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, List<String>> kernel : byBoot.entrySet()) {
      if (kernel.getValue().size() < 2) {
        continue;
      }
      Map<String, String[]> owner = new LinkedHashMap<>();
      Set<String> told = new HashSet<>();
      for (String host : kernel.getValue()) {
        for (Knob k : knobsByHost.get(host)) {
          if (k.path().startsWith("/proc/sys/net/")) {
            continue;
          }
          for (Unit u : units(k, reads.get(host), true)) {
            String[] first = owner.putIfAbsent(u.key(), new String[] {host, k.name()});
            if (first != null && !first[0].equals(host) && told.add(first[1] + "\n" + k.name())) {
              problems.add(
                  "host "
                      + host
                      + ": hosts "
                      + first[0]
                      + " and "
                      + host
                      + " are one kernel (boot id "
                      + kernel.getKey()
                      + "): "
                      + first[0]
                      + "'s "
                      + first[1]
                      + " and "
                      + host
                      + "'s "
                      + k.name()
                      + " "
                      + u.what()
                      + ": set it on one of them only");
              break;
            }
          }
        }
      }
    }
    return problems;
  }

  /** One setting a knob's file belongs to, and how to say that two knobs share it. */
  private record Unit(String key, String what) {}

  /**
   * The settings {@code k} is part of: its file; the read-ahead of its bdi; and with {@code
   * together} also what one write changes with it (its device's queue, its exclusive pair).
   */
  private static List<Unit> units(Knob k, Map<String, ReadResult> reads, boolean together) {
    ReadResult own = reads.get(k.path());
    if (own == null || !own.exists()) {
      return List.of();
    }
    String file = own.file(k.path());
    List<Unit> units = new ArrayList<>();
    units.add(new Unit("file " + file, "are one file, " + file));
    readAheadBdi(k, file, reads)
        .ifPresent(
            bdi ->
                units.add(
                    new Unit(
                        "bdi " + bdi,
                        "are one setting, the read-ahead of device "
                            + bdi
                            + " ("
                            + KnobCatalogue.bdiPath(bdi, "read_ahead_kb")
                            + ")")));
    if (together) {
      int queue = file.indexOf("/queue/");
      if (queue > 0) {
        String dir = file.substring(0, queue + "/queue".length());
        units.add(
            new Unit(
                "queue " + dir,
                "are files of one device's queue, "
                    + dir
                    + ", where one write can change another"));
      }
      ExclusivePair.containing(k)
          .ifPresent(
              p ->
                  units.add(
                      new Unit(
                          "pair " + p.bytes().path(),
                          "are the exclusive pair "
                              + p.bytes().name()
                              + "/"
                              + p.ratio().name()
                              + ", where writing one zeroes the other")));
    }
    return units;
  }

  /** The bdi (major:minor) whose read-ahead {@code k} is, when it is one. */
  private static Optional<String> readAheadBdi(Knob k, String file, Map<String, ReadResult> reads) {
    if (!file.endsWith("/read_ahead_kb")) {
      return Optional.empty();
    }
    if (k.kind() == Knob.Kind.BDI) {
      return Optional.of(k.device());
    }
    if (k.kind() == Knob.Kind.BLOCK_QUEUE) {
      // A disk's bdi is named after its device number, which its dev file holds.
      ReadResult dev = reads.get(KnobCatalogue.devicePresencePath(k.device()));
      String number = dev == null ? "" : dev.raw().strip();
      return MAJOR_MINOR.matcher(number).matches() ? Optional.of(number) : Optional.empty();
    }
    Matcher m = BDI_READ_AHEAD.matcher(file);
    return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
  }

  private static Optional<String> bootId(Map<String, ReadResult> reads) {
    ReadResult boot = reads == null ? null : reads.get(BOOT_ID);
    String id = boot == null ? "" : boot.raw().strip();
    return id.isEmpty() ? Optional.empty() : Optional.of(id);
  }
}
