package io.tunelab.matrix;

import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.YamlNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads {@code workload}: one job written in a short form ({@code dd}, {@code fio} or {@code
 * command} with the job's keys beside it), or {@code jobs} started together; and the time limits,
 * the workload's and each job's own, each job's timeout longer than its duration plus the stop
 * grace.
 */
final class WorkloadReader {
  private static final List<String> JOB_KEYS =
      List.of(
          "on", "dd", "command", "parser", "processes", "fio", "bytes", "ionice", "nice", "cpus");
  private static final List<String> JOB_LIMITS = List.of("duration", "timeout");
  private static final List<String> LIMITS = concat(JOB_LIMITS, List.of("stop_grace"));
  private static final List<String> SHORT_KEYS = concat(JOB_KEYS, LIMITS, List.of("jobs"));

  /** A job's keys under jobs; stop_grace among them only to be told it is the workload's. */
  private static final List<String> NAMED_JOB_KEYS = concat(JOB_KEYS, LIMITS);

  private static final List<String> WORKS = List.of("dd", "fio", "command");
  private static final List<String> PARSERS = List.of("dd", "fio", "metrics", "none");
  private static final Pattern JOB_NAME = Pattern.compile("[A-Za-z0-9_-]+");

  private final NodeReader in;
  private final Roles roles;
  private final VariableUses uses;
  private final NumberFields numbers;
  private final DdReader dd;
  private final FioReader fio;

  WorkloadReader(
      NodeReader in, Roles roles, Variables variables, VariableUses uses, JobFiles files) {
    this.in = in;
    this.roles = roles;
    this.uses = uses;
    this.numbers = new NumberFields(in, variables, uses);
    this.dd = new DdReader(in, variables, uses, numbers);
    this.fio = new FioReader(in, uses, files);
  }

  Workload read(YamlNode node) {
    YamlNode.Mapping map = in.mapping(node, "workload");
    if (map == null) {
      return null;
    }
    int before = in.problems().size();
    TimeLimits limits =
        new TimeLimits(
            in,
            map,
            limit(map, "workload", "duration"),
            limit(map, "workload", "timeout"),
            limit(map, "workload", "stop_grace"));
    List<Workload.Job> jobs = new ArrayList<>();
    if (map.get("jobs") != null) {
      jobs(map, jobs, limits);
    } else {
      in.onlyKeys(map, "workload", SHORT_KEYS);
      String name = shortName(map);
      if (name != null) {
        jobs.add(job(map, "workload", name, true));
      }
    }
    if (jobs.isEmpty()
        || jobs.stream().anyMatch(j -> j.duration() == null && j.timeout() == null)) {
      // the workload's own pair is what some job runs with
      limits.checkWorkload();
    }
    if (in.problems().size() > before) {
      return null;
    }
    return new Workload(
        List.copyOf(jobs), limits.duration(), limits.timeout(), limits.grace(), map.position());
  }

  /** The job name of a short form, or null (with a problem) unless exactly one kind is given. */
  private String shortName(YamlNode.Mapping map) {
    List<String> given = WORKS.stream().filter(w -> map.get(w) != null).toList();
    if (given.size() > 1) {
      in.problem(
          map.position(),
          "workload",
          "give one of dd, fio or command, not " + String.join(" and ", given));
      return null;
    }
    if (given.isEmpty()) {
      in.problem(
          map.position(),
          "workload",
          "give dd (a dd run), fio (fio options), command (any program) or jobs (several of"
              + " them together)");
      return null;
    }
    return given.get(0).equals("command") ? "cmd" : given.get(0);
  }

  private void jobs(YamlNode.Mapping map, List<Workload.Job> jobs, TimeLimits limits) {
    for (YamlNode.Entry e : map.entries()) {
      String key = "workload." + e.key();
      if (JOB_KEYS.contains(e.key())) {
        in.problem(
            e.keyPosition(),
            key,
            "with jobs, each job has its own "
                + e.key()
                + ": move it under workload.jobs.NAME (only duration and timeout apply to all)");
      } else if (!SHORT_KEYS.contains(e.key())) {
        in.problem(e.keyPosition(), key, "unknown key" + DidYouMean.hint(e.key(), SHORT_KEYS));
      }
    }
    YamlNode.Mapping named = in.mapping(map.get("jobs"), "workload.jobs");
    if (named == null) {
      return;
    }
    if (named.entries().isEmpty()) {
      in.problem(named.position(), "workload.jobs", "give at least one job");
    }
    for (YamlNode.Entry e : named.entries()) {
      String key = "workload.jobs." + e.key();
      if (!JOB_NAME.matcher(e.key()).matches()) {
        in.problem(
            e.keyPosition(),
            key,
            "a job name is letters, digits, '_' and '-' (it names samples: NAME, NAME.0, …)");
        continue;
      }
      if (e.key().equals("all")) {
        in.problem(
            e.keyPosition(),
            key,
            "'all' names the samples of the whole trial: give the job another name");
        continue;
      }
      YamlNode.Mapping job = in.mapping(e.value(), key);
      if (job != null) {
        YamlNode.Entry grace = job.byKey().get("stop_grace");
        if (grace != null) {
          in.problem(
              grace.keyPosition(),
              key + ".stop_grace",
              "the stop grace is the workload's, for all its jobs: write it beside jobs"
                  + " (workload.stop_grace)");
        }
        in.onlyKeys(job, key, NAMED_JOB_KEYS);
        List<String> given = WORKS.stream().filter(w -> job.get(w) != null).toList();
        if (given.size() == 1) {
          Workload.Job read = job(job, key, e.key(), false);
          limits.checkJob(read, job);
          jobs.add(read);
        } else {
          in.problem(
              job.position(),
              key,
              given.isEmpty()
                  ? "give dd (a dd run), fio (fio options) or command (any program)"
                  : "give one of dd, fio or command, not " + String.join(" and ", given));
        }
      }
    }
  }

  /** Reads a job whose map holds exactly one of dd, fio and command. */
  private Workload.Job job(YamlNode.Mapping map, String key, String name, boolean shortForm) {
    String on = roles.on(map, key + ".on");
    String kind = WORKS.stream().filter(w -> map.get(w) != null).findFirst().orElseThrow();
    String word = shortForm ? "workload" : "job";
    if (!kind.equals("command")) {
      misplaced(
          map,
          key,
          "parser",
          "a "
              + kind
              + " "
              + word
              + " is always parsed as "
              + kind
              + "; parser is for command "
              + word
              + "s");
      misplaced(
          map,
          key,
          "bytes",
          "bytes is for command " + word + "s: " + kind + " reports the bytes it moves");
    }
    String processes = processes(map, key, kind);
    String ionice =
        optional(
            map,
            key,
            "ionice",
            "an ionice class (none, idle, be/0 to be/7, rt/0 to rt/7)",
            JobValues::ioniceProblem);
    String nice = optional(map, key, "nice", "a niceness from -20 to 19", JobValues::niceProblem);
    String cpus = optional(map, key, "cpus", "a CPU list such as 0-3,6", JobValues::cpusProblem);
    // A short form's duration and timeout are the workload's.
    String duration = shortForm ? null : limit(map, key, "duration");
    String timeout = shortForm ? null : limit(map, key, "timeout");
    Workload.Work work =
        switch (kind) {
          case "dd" -> dd.read(map.get("dd"), key + ".dd");
          case "fio" -> fio.read(map.get("fio"), key + ".fio");
          default -> command(map, key);
        };
    return new Workload.Job(
        name, key, on, processes, ionice, nice, cpus, duration, timeout, work, map.position());
  }

  private void misplaced(YamlNode.Mapping map, String key, String field, String why) {
    YamlNode.Entry e = map.byKey().get(field);
    if (e != null) {
      in.problem(e.keyPosition(), key + "." + field, why);
    }
  }

  /** A job's processes: beside its program, or (as dd always allowed) under {@code dd}. */
  private String processes(YamlNode.Mapping map, String key, String kind) {
    YamlNode inner =
        kind.equals("dd") && map.get("dd") instanceof YamlNode.Mapping d
            ? d.get("processes")
            : null;
    if (inner == null) {
      return numbers.processes(map.get("processes"), key + ".processes");
    }
    YamlNode.Entry outer = map.byKey().get("processes");
    if (outer != null) {
      in.problem(
          outer.keyPosition(),
          key + ".processes",
          "processes is also given under dd (" + key + ".dd.processes): keep one");
    }
    return numbers.processes(inner, key + ".dd.processes");
  }

  private String optional(
      YamlNode.Mapping map,
      String key,
      String field,
      String what,
      java.util.function.Function<String, String> problem) {
    YamlNode node = map.get(field);
    return node == null ? null : numbers.literalOrVariable(node, key + "." + field, what, problem);
  }

  private Workload.Command command(YamlNode.Mapping map, String key) {
    YamlNode node = map.get("command");
    String command = in.text(node, key + ".command");
    if (command != null) {
      command = ValueRules.stripTrailingNewlines(command);
      String why = ValueRules.commandProblem(command);
      if (why != null) {
        in.problem(node.position(), key + ".command", why);
        command = null;
      } else {
        uses.use(command, node.position(), key + ".command", VariableUses.Context.WORKLOAD);
      }
    }
    String parser = "none";
    YamlNode parserNode = map.get("parser");
    if (parserNode != null) {
      parser = in.text(parserNode, key + ".parser");
      if (parser != null && !PARSERS.contains(parser)) {
        in.problem(
            parserNode.position(),
            key + ".parser",
            "'"
                + parser
                + "' is not a parser (parsers: "
                + String.join(", ", PARSERS)
                + ")"
                + DidYouMean.hint(parser, PARSERS));
        parser = null;
      }
    }
    String bytes = null;
    YamlNode bytesNode = map.get("bytes");
    if (bytesNode != null) {
      bytes = in.text(bytesNode, key + ".bytes");
      if (bytes != null) {
        numbers.checkSize(bytesNode, bytes, key + ".bytes");
      }
    }
    if (command == null || parser == null) {
      return null;
    }
    return new Workload.Command(command, parser, bytes, map.position());
  }

  private String limit(YamlNode.Mapping map, String key, String field) {
    YamlNode node = map.get(field);
    return node == null
        ? null
        : numbers.literalOrVariable(
            node, key + "." + field, "a duration such as 30s", JobValues::durationProblem);
  }

  @SafeVarargs
  private static List<String> concat(List<String>... lists) {
    List<String> all = new ArrayList<>();
    for (List<String> l : lists) {
      all.addAll(l);
    }
    return List.copyOf(all);
  }
}
