package io.tunelab.matrix;

import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.Problem;
import io.tunelab.yaml.YamlNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads {@code monitors}: each entry a tool name (on every role, every second) or {@code {run, on,
 * interval, devices}}.
 */
final class MonitorsReader {
  private static final List<String> TOOLS = List.of("vmstat", "iostat", "mpstat");
  private static final List<String> KEYS = List.of("run", "on", "interval", "devices");
  private static final Pattern DEVICE = Pattern.compile("[A-Za-z0-9._:+-]*");

  private final NodeReader in;
  private final Roles roles;
  private final VariableUses uses;

  MonitorsReader(NodeReader in, Roles roles, VariableUses uses) {
    this.in = in;
    this.roles = roles;
    this.uses = uses;
  }

  List<Monitor> read(YamlNode node) {
    YamlNode.Sequence list = node == null ? null : in.sequence(node, "monitors");
    if (list == null) {
      return List.of();
    }
    List<Monitor> monitors = new ArrayList<>();
    Map<String, String> seen = new LinkedHashMap<>(); // tool@role -> where first given
    int number = 0;
    for (YamlNode item : list.items()) {
      number++;
      String path = "monitors[" + number + "]";
      Monitor m =
          item instanceof YamlNode.Mapping map
              ? monitor(map, path)
              : simple(item, path, "monitors");
      if (m == null) {
        continue;
      }
      for (String role : m.roles()) {
        String earlier = seen.putIfAbsent(m.tool() + "@" + role, path);
        if (earlier != null) {
          in.problem(
              m.position(),
              path,
              m.tool() + " already runs on role " + role + " (" + earlier + "): give it once");
        }
      }
      monitors.add(m);
    }
    return List.copyOf(monitors);
  }

  /** A tool name alone: on every role, every second. */
  private Monitor simple(YamlNode item, String path, String key) {
    String tool = tool(item, key);
    return tool == null
        ? null
        : new Monitor(
            tool,
            List.copyOf(roles.asMap().keySet()),
            Duration.ofSeconds(1),
            List.of(),
            item.position());
  }

  private Monitor monitor(YamlNode.Mapping map, String path) {
    in.onlyKeys(map, path, KEYS);
    int before = in.problems().size();
    YamlNode runNode = map.get("run");
    String tool = null;
    if (runNode == null) {
      in.problem(
          map.position(), path + ".run", "required key is missing (vmstat, iostat or mpstat)");
    } else {
      tool = tool(runNode, path + ".run");
    }
    List<String> on = on(map.get("on"), path + ".on");
    Duration interval = interval(map.get("interval"), path + ".interval");
    List<String> devices = devices(map.byKey().get("devices"), path + ".devices", tool);
    if (in.problems().size() > before) {
      return null;
    }
    return new Monitor(tool, on, interval, devices, map.position());
  }

  private String tool(YamlNode node, String key) {
    String tool = in.text(node, key);
    if (tool != null && !TOOLS.contains(tool)) {
      in.problem(
          node.position(),
          key,
          "'"
              + tool
              + "' is not a monitor (monitors: vmstat, iostat, mpstat)"
              + DidYouMean.hint(tool, TOOLS));
      return null;
    }
    return tool;
  }

  /** The roles to monitor: one, a list, or (left out) every role. */
  private List<String> on(YamlNode node, String key) {
    if (node == null) {
      return List.copyOf(roles.asMap().keySet());
    }
    List<YamlNode> items = node instanceof YamlNode.Sequence s ? s.items() : List.of(node);
    if (items.isEmpty()) {
      in.problem(node.position(), key, "give at least one role" + roles.list());
    }
    List<String> on = new ArrayList<>();
    for (YamlNode item : items) {
      String role = in.text(item, key);
      if (role == null) {
        continue;
      }
      if (!roles.asMap().containsKey(role)) {
        in.problem(
            item.position(), key, "unknown role '" + role + "'" + roles.list() + roles.hint(role));
      } else if (on.contains(role)) {
        in.problem(item.position(), key, "role '" + role + "' is given twice");
      } else {
        on.add(role);
      }
    }
    return List.copyOf(on);
  }

  private Duration interval(YamlNode node, String key) {
    if (node == null) {
      return Duration.ofSeconds(1);
    }
    String text = in.text(node, key);
    if (text == null) {
      return null;
    }
    try {
      Duration d = Durations.parse(text);
      if (d.toMillis() % 1000 == 0) {
        return d;
      }
      in.problem(
          node.position(), key, "'" + text + "': monitors sample in whole seconds (1s, 2s, 1m)");
    } catch (IllegalArgumentException e) {
      in.problem(node.position(), key, e.getMessage());
    }
    return null;
  }

  private List<String> devices(YamlNode.Entry entry, String key, String tool) {
    if (entry == null) {
      return List.of();
    }
    if (tool != null && !tool.equals("iostat")) {
      in.problem(
          entry.keyPosition(),
          key,
          "devices is for iostat: " + tool + " reports on the whole host");
      return List.of();
    }
    YamlNode.Sequence list = in.sequence(entry.value(), key);
    if (list == null) {
      return List.of();
    }
    List<String> devices = new ArrayList<>();
    for (YamlNode item : list.items()) {
      String device = in.text(item, key);
      if (device == null) {
        continue;
      }
      String literal;
      try {
        literal = Substitution.literalText(device);
      } catch (IllegalArgumentException e) {
        in.problem(item.position(), key, e.getMessage());
        continue;
      }
      if (device.isEmpty() || !DEVICE.matcher(literal).matches()) {
        in.problem(
            item.position(),
            key,
            "'"
                + Problem.printable(device)
                + "' is not a device name (sdb, nvme0n1, dm-0), optionally with ${variables}");
        continue;
      }
      uses.use(device, item.position(), key, VariableUses.Context.MONITOR);
      devices.add(device);
    }
    return List.copyOf(devices);
  }
}
