package io.tunelab.matrix;

import io.tunelab.yaml.Problem;
import io.tunelab.yaml.YamlNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads a {@code fio} job: fio options as a map, or a job file. tunelab runs fio with JSON output
 * and names each fio after its job, so the options that would change either are refused.
 */
final class FioReader {
  private static final Pattern OPTION = Pattern.compile("[a-z][a-z0-9_]*");
  private static final Map<String, String> RESERVED =
      Map.of(
          "name", "tunelab names each fio after its job",
          "output", "tunelab reads fio's JSON from its standard output",
          "minimal", "tunelab reads fio's JSON output, which minimal replaces",
          "status_interval", "tunelab reads one JSON document, which status_interval repeats");

  /**
   * tunelab's own job keys, which fio does not know: written inside {@code fio:} they would reach
   * fio as {@code --processes=4} and fail every trial. The value names fio's own counterpart.
   * ({@code nice} is both: fio has it too, so it stays a fio option there.)
   */
  private static final Map<String, String> JOB_KEYS =
      Map.of(
          "processes", " (fio's own copies are numjobs)",
          "ionice", " (fio's own are prioclass and prio)",
          "cpus", " (fio's own is cpus_allowed)",
          "duration", " (fio's own is runtime with time_based)",
          "timeout", "",
          "on", "",
          "parser", "",
          "bytes", "");

  private final NodeReader in;
  private final VariableUses uses;
  private final JobFiles files;

  FioReader(NodeReader in, VariableUses uses, JobFiles files) {
    this.in = in;
    this.uses = uses;
    this.files = files;
  }

  /**
   * Reads a fio job's map; null (with problems) when it cannot run.
   *
   * @param path where the map is written: {@code workload.fio}, {@code workload.jobs.NAME.fio}
   */
  Workload.Fio read(YamlNode node, String path) {
    YamlNode.Mapping map = in.mapping(node, path);
    if (map == null) {
      return null;
    }
    if (map.entries().isEmpty()) {
      in.problem(
          map.position(), path, "give fio options (rw: read, bs: 64k, …) or jobfile: FILE.fio");
      return null;
    }
    if (map.get("jobfile") != null) {
      return jobFile(map, path);
    }
    Map<String, String> options = new LinkedHashMap<>();
    boolean ok = true;
    for (YamlNode.Entry e : map.entries()) {
      String key = path + "." + e.key();
      String why = optionProblem(e.key());
      if (why != null) {
        in.problem(e.keyPosition(), key, why);
        ok = false;
        continue;
      }
      if (e.value() instanceof YamlNode.Scalar s && s.isNull()) {
        options.put(e.key(), null); // an option without a value, such as time_based
        continue;
      }
      String value = in.text(e.value(), key);
      why = value == null ? "" : valueProblem(value);
      if (why != null) {
        if (!why.isEmpty()) {
          in.problem(e.value().position(), key, why);
        }
        ok = false;
        continue;
      }
      uses.use(value, e.value().position(), key, VariableUses.Context.WORKLOAD);
      options.put(e.key(), value);
    }
    return ok
        ? new Workload.Fio(Collections.unmodifiableMap(options), null, null, map.position())
        : null;
  }

  private Workload.Fio jobFile(YamlNode.Mapping map, String path) {
    boolean ok = true;
    for (YamlNode.Entry e : map.entries()) {
      if (!e.key().equals("jobfile")) {
        in.problem(
            e.keyPosition(),
            path + "." + e.key(),
            "a job file holds the fio options: give jobfile alone, or options without it");
        ok = false;
      }
    }
    YamlNode node = map.get("jobfile");
    String key = path + ".jobfile";
    String file = in.text(node, key);
    if (file == null) {
      return null;
    }
    if (file.isBlank() || file.indexOf('\n') >= 0 || file.indexOf('\r') >= 0) {
      in.problem(node.position(), key, "give the job file's path, relative to the matrix file");
      return null;
    }
    String text;
    try {
      text = files.read(file);
    } catch (IllegalArgumentException e) {
      in.problem(node.position(), key, "cannot read '" + file + "': " + e.getMessage());
      return null;
    }
    if (text.isBlank()) {
      in.problem(node.position(), key, "job file '" + file + "' is empty");
      return null;
    }
    uses.use(text, node.position(), key, VariableUses.Context.WORKLOAD);
    return ok ? new Workload.Fio(Map.of(), file, text, map.position()) : null;
  }

  private static String optionProblem(String option) {
    if (!OPTION.matcher(option).matches()) {
      return "'"
          + option
          + "' is not a fio option name: lower-case letters, digits and _, as in fio's"
          + " documentation (iodepth, ioengine, rw)";
    }
    if (JOB_KEYS.containsKey(option)) {
      return "'"
          + option
          + "' is a tunelab job key, not a fio option: write it beside fio:, not inside"
          + JOB_KEYS.get(option);
    }
    String reserved = RESERVED.get(option);
    return reserved == null ? null : "'" + option + "' is not allowed: " + reserved;
  }

  private static String valueProblem(String value) {
    if (value.isEmpty()) {
      return "give a value, or leave it out for an option without one (time_based:)";
    }
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        return "value '"
            + Problem.printable(value)
            + "' contains a line break or control character";
      }
    }
    return null;
  }
}
