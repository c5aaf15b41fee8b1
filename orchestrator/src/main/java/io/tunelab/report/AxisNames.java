package io.tunelab.report;

import io.tunelab.TunelabException;
import io.tunelab.yaml.DidYouMean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The axes of an experiment as people type and read them: a knob axis such as {@code
 * disk.block.${dev}.read_ahead_kb} is shown, and may be named, as {@code read_ahead_kb} unless two
 * axes would then share a name.
 */
public final class AxisNames {
  private final List<String> names;
  private final Map<String, String> shortNames;

  /** The axes of one experiment, in axis order. */
  public AxisNames(List<String> names) {
    this.names = List.copyOf(names);
    this.shortNames = shorten(names);
  }

  /** Every axis as written, in axis order. */
  public List<String> all() {
    return names;
  }

  /** How {@code axis} is shown: its short name, or the full one when short names clash. */
  public String shown(String axis) {
    return shortNames.getOrDefault(axis, axis);
  }

  /**
   * The axis a user means by {@code given}: its name as written or as shown. Anything else fails
   * with exit code 2 and the list of axes; {@code where} names the experiment for the message.
   */
  public String resolve(String given, String where) {
    if (names.contains(given)) {
      return given;
    }
    List<String> matches = new ArrayList<>();
    for (String name : names) {
      if (shortNames.get(name).equals(given)) {
        matches.add(name);
      }
    }
    if (matches.size() == 1) {
      return matches.get(0);
    }
    List<String> spellings = new ArrayList<>(names);
    spellings.addAll(shownAll());
    throw unknown(given, where, spellings);
  }

  /**
   * The failure for an axis {@code given} that is none of them: exit code 2, the axes there are,
   * and the closest of {@code spellings} when one is close.
   */
  TunelabException unknown(String given, String where, Iterable<String> spellings) {
    return new TunelabException(
        TunelabException.BAD_INPUT,
        where
            + " has no axis '"
            + given
            + "'"
            + (names.isEmpty() ? "" : " (axes: " + String.join(", ", shownAll()) + ")")
            + DidYouMean.hint(given, spellings));
  }

  /** {@code name=value/name=value} of the given axes, as cell labels are written. */
  public String label(Map<String, String> params, List<String> axes) {
    List<String> parts = new ArrayList<>();
    for (String axis : axes) {
      parts.add(shown(axis) + "=" + params.getOrDefault(axis, "-"));
    }
    return String.join("/", parts);
  }

  private List<String> shownAll() {
    return names.stream().map(this::shown).toList();
  }

  /** Short names: the part after the last {@code .} or {@code /}, unless two would clash. */
  static Map<String, String> shorten(List<String> names) {
    Map<String, String> shortened = new LinkedHashMap<>();
    Map<String, Integer> uses = new HashMap<>();
    for (String name : names) {
      int cut = Math.max(name.lastIndexOf('/'), name.lastIndexOf('.'));
      String s = cut >= 0 && cut < name.length() - 1 ? name.substring(cut + 1) : name;
      shortened.put(name, s);
      uses.merge(s, 1, Integer::sum);
    }
    shortened.replaceAll((name, s) -> uses.get(s) > 1 ? name : s);
    return shortened;
  }
}
