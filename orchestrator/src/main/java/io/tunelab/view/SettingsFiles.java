package io.tunelab.view;

import io.tunelab.store.CellSettings;
import io.tunelab.store.CellSettings.Setting;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A cell's settings as files to deploy on its hosts ({@code tunelab settings}): sysctl.d lines,
 * udev rules for block devices matched by a stable name, a tuned profile, or the cell's values as
 * matrix YAML. A setting a format cannot hold is named in a comment, never dropped.
 */
public final class SettingsFiles {
  /** What {@code --format} takes. */
  public enum Format {
    SYSCTL,
    UDEV,
    TUNED,
    YAML;

    /** The format {@code --format} names, or null. */
    public static Format of(String name) {
      for (Format f : values()) {
        if (f.name().toLowerCase(Locale.ROOT).equals(name)) {
          return f;
        }
      }
      return null;
    }
  }

  private static final String PROC_SYS = "/proc/sys/";
  private static final String SYS_BLOCK = "/sys/block/";
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9._/:+@-]+");

  private SettingsFiles() {}

  /** The files of {@code cell} in {@code format}, each host's under a comment naming it. */
  public static String render(CellSettings cell, Format format) {
    StringBuilder out = new StringBuilder();
    out.append("# tunelab settings: experiment ")
        .append(cell.experimentId())
        .append(" (")
        .append(cell.experimentName())
        .append("), cell ")
        .append(cell.ordinal())
        .append(" (")
        .append(cell.label())
        .append(')')
        .append(cell.winner() ? ", the search's winner" : "")
        .append('\n');
    if (format == Format.YAML) {
      return yaml(cell, out);
    }
    for (Map.Entry<String, List<Setting>> host : byHost(cell).entrySet()) {
      List<Setting> set = new ArrayList<>();
      List<Setting> left = new ArrayList<>();
      for (Setting s : host.getValue()) {
        (s.value().equals("default") ? left : set).add(s);
      }
      Setting first = host.getValue().get(0);
      out.append('\n').append("# host ").append(host.getKey()).append(" (role ");
      out.append(first.role()).append(")\n");
      Map<String, String> facts = cell.facts().getOrDefault(host.getKey(), Map.of());
      switch (format) {
        case SYSCTL -> sysctl(set, out);
        case UDEV -> udev(set, facts, out);
        case TUNED -> tuned(cell, host.getKey(), set, out);
        default -> throw new IllegalArgumentException(format.toString());
      }
      for (Setting s : left) {
        out.append("# left at the host's own value: ").append(s.knob()).append('\n');
      }
    }
    kernels(cell, out);
    if (cell.settings().isEmpty()) {
      out.append("# the cell set no knob\n");
    }
    return out.toString();
  }

  private static Map<String, List<Setting>> byHost(CellSettings cell) {
    Map<String, List<Setting>> byHost = new LinkedHashMap<>();
    for (Setting s : cell.settings()) {
      byHost.computeIfAbsent(s.host(), h -> new ArrayList<>()).add(s);
    }
    return byHost;
  }

  private static void sysctl(List<Setting> set, StringBuilder out) {
    out.append("# /etc/sysctl.d/90-tunelab.conf\n");
    for (Setting s : set) {
      if (isSysctl(s)) {
        out.append(sysctlName(s)).append(" = ").append(s.value()).append('\n');
      }
    }
    for (Setting s : set) {
      if (!isSysctl(s)) {
        out.append("# not a sysctl: ")
            .append(s.path())
            .append(" = ")
            .append(s.value())
            .append(isBlock(s) ? " (--format udev or tuned)" : " (--format tuned)")
            .append('\n');
      }
    }
  }

  private static void udev(List<Setting> set, Map<String, String> facts, StringBuilder out) {
    out.append("# /etc/udev/rules.d/90-tunelab.rules\n");
    Map<String, List<Setting>> byDevice = new LinkedHashMap<>();
    for (Setting s : set) {
      if (isBlock(s)) {
        byDevice.computeIfAbsent(device(s), d -> new ArrayList<>()).add(s);
      }
    }
    for (Map.Entry<String, List<Setting>> d : byDevice.entrySet()) {
      String dev = d.getKey();
      String wwid = facts.get("block." + dev + ".wwid");
      String serial = facts.get("block." + dev + ".serial");
      String match;
      if (wwid != null) {
        match = "ATTRS{wwid}==\"" + wwid + "\"";
      } else if (serial != null) {
        match = "ATTRS{serial}==\"" + serial + "\"";
      } else {
        out.append("# ")
            .append(dev)
            .append(": no stable name recorded (no wwid or serial), so matched by its kernel")
            .append(" name, which can change from boot to boot\n");
        match = "KERNEL==\"" + dev + "\"";
      }
      out.append("ACTION==\"add|change\", SUBSYSTEM==\"block\", ").append(match);
      // The scheduler first: a change of scheduler resets the attributes it owns.
      for (Setting s : schedulerFirst(d.getValue())) {
        out.append(", ATTR{").append(attribute(s)).append("}=\"").append(s.value()).append('"');
      }
      out.append('\n');
    }
    for (Setting s : set) {
      if (!isBlock(s)) {
        out.append("# no udev form: ")
            .append(s.path())
            .append(" = ")
            .append(s.value())
            .append(isSysctl(s) ? " (--format sysctl or tuned)" : " (--format tuned)")
            .append('\n');
      }
    }
  }

  private static void tuned(CellSettings cell, String host, List<Setting> set, StringBuilder out) {
    String profile = "tunelab-" + cell.experimentId() + "-cell-" + cell.ordinal();
    out.append("# /etc/tuned/")
        .append(profile)
        .append("/tuned.conf, then: tuned-adm profile ")
        .append(profile)
        .append('\n');
    out.append("[main]\nsummary=tunelab experiment ")
        .append(cell.experimentId())
        .append(", cell ")
        .append(cell.ordinal())
        .append(", host ")
        .append(host)
        .append('\n');
    List<Setting> sysctls = set.stream().filter(SettingsFiles::isSysctl).toList();
    if (!sysctls.isEmpty()) {
      out.append("\n[sysctl]\n");
      sysctls.forEach(s -> out.append(sysctlName(s)).append('=').append(s.value()).append('\n'));
    }
    List<Setting> sysfs = schedulerFirst(set.stream().filter(s -> !isSysctl(s)).toList());
    if (!sysfs.isEmpty()) {
      out.append("\n[sysfs]\n");
      if (sysfs.stream().anyMatch(SettingsFiles::isBlock)) {
        out.append("# block devices by the kernel names they had in the run\n");
      }
      sysfs.forEach(s -> out.append(s.path()).append('=').append(s.value()).append('\n'));
    }
  }

  private static void kernels(CellSettings cell, StringBuilder out) {
    cell.params()
        .forEach(
            (axis, value) -> {
              if (axis.endsWith(".kernel")) {
                out.append("# ")
                    .append(axis)
                    .append(": ")
                    .append(value)
                    .append(" has no file form here: make it the boot loader's default\n");
              }
            });
  }

  private static String yaml(CellSettings cell, StringBuilder out) {
    out.append("# its values as one-value axes, for the experiment's matrix\nmatrix:\n");
    cell.params()
        .forEach(
            (axis, value) ->
                out.append("  ")
                    .append(scalar(axis))
                    .append(": [")
                    .append(scalar(value))
                    .append("]\n"));
    return out.toString();
  }

  private static List<Setting> schedulerFirst(List<Setting> settings) {
    List<Setting> ordered = new ArrayList<>();
    settings.stream().filter(s -> s.path().endsWith("/queue/scheduler")).forEach(ordered::add);
    settings.stream().filter(s -> !s.path().endsWith("/queue/scheduler")).forEach(ordered::add);
    return ordered;
  }

  private static boolean isSysctl(Setting s) {
    return s.path() != null && s.path().startsWith(PROC_SYS);
  }

  private static boolean isBlock(Setting s) {
    return s.path() != null && s.path().startsWith(SYS_BLOCK) && attribute(s).contains("/");
  }

  private static String sysctlName(Setting s) {
    return s.path().substring(PROC_SYS.length()).replace('/', '.');
  }

  private static String device(Setting s) {
    String rest = s.path().substring(SYS_BLOCK.length());
    return rest.substring(0, rest.indexOf('/'));
  }

  private static String attribute(Setting s) {
    String rest = s.path().substring(SYS_BLOCK.length());
    int slash = rest.indexOf('/');
    return slash < 0 ? "" : rest.substring(slash + 1);
  }

  private static String scalar(String text) {
    if (PLAIN.matcher(text).matches() && !isYamlWord(text)) {
      return text;
    }
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static boolean isYamlWord(String text) {
    return List.of("true", "false", "yes", "no", "on", "off", "null", "~")
        .contains(text.toLowerCase(Locale.ROOT));
  }
}
