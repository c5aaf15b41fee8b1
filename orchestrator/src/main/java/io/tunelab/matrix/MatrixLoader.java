package io.tunelab.matrix;

import io.tunelab.yaml.DidYouMean;
import io.tunelab.yaml.Position;
import io.tunelab.yaml.Problem;
import io.tunelab.yaml.Problems;
import io.tunelab.yaml.YamlNode;
import io.tunelab.yaml.YamlReader;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Loads a matrix file (version 1) from its text and validates all of it before anything is touched.
 * The caller reads the file; this class does no I/O.
 */
public final class MatrixLoader {
  /** Most cells the axes may cross to, before exclude. */
  public static final long MAX_CELLS = 1_000_000;

  /** Most trials (cells times warm-up plus repetitions) an experiment may have. */
  public static final long MAX_TRIALS = 10_000_000;

  static final List<String> TOP_KEYS =
      List.of(
          "name",
          "description",
          "params",
          "roles",
          "hosts",
          "setup",
          "teardown",
          "cell_setup",
          "cell_teardown",
          "settings",
          "matrix",
          "exclude",
          "include",
          "repeat",
          "metric",
          "warmup",
          "boots",
          "order",
          "seed",
          "retries",
          "reconnect",
          "on_flag",
          "cache_flag",
          "noise",
          "search",
          "before_trial",
          "after_trial",
          "monitors",
          "workload");
  private static final List<String> ORDERS =
      List.of("sequential", "shuffle", "fewest-changes", "rounds");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");
  private static final Pattern PERCENT = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)%");
  private static final Pattern ROLE = Pattern.compile("[a-z][a-z0-9_-]*");
  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._-]+");
  private static final int MAX_REPEAT = 100_000;

  private final String file;
  private final String text;
  private final JobFiles jobFiles;
  private final Overrides set;
  private final Problems problems = new Problems(MatrixException::new);
  private final NodeReader in = new NodeReader(problems);

  private MatrixLoader(String file, String text, JobFiles jobFiles, Map<String, String> set) {
    this.file = file;
    this.text = text;
    this.jobFiles = jobFiles;
    this.set = new Overrides(set);
  }

  /**
   * Parses and validates a matrix that names no job file.
   *
   * @param fileName the name used in messages ({@code FILE:LINE:COL: KEY: what is wrong})
   * @throws MatrixException listing every problem found, in file order
   */
  public static Matrix load(String fileName, String text) {
    return load(fileName, text, JobFiles.NONE);
  }

  /**
   * Parses and validates a matrix; the fio job files it names are read through {@code jobFiles}.
   *
   * @throws MatrixException listing every problem found, in file order
   */
  public static Matrix load(String fileName, String text, JobFiles jobFiles) {
    return load(fileName, text, jobFiles, Map.of());
  }

  /**
   * Parses and validates a matrix with the overrides of a run ({@code --set NAME=VALUE}): each
   * replaces a {@code params:} entry, narrows an axis to one value, or gives {@code repeat}, {@code
   * warmup}, {@code seed} or {@code order}. A name that is none of these is a problem.
   *
   * @param set name to value, in the order given
   * @throws MatrixException listing every problem found, in file order ({@code --set} problems
   *     stand where the value they replace is written, or at the top of the file)
   */
  public static Matrix load(
      String fileName, String text, JobFiles jobFiles, Map<String, String> set) {
    return new MatrixLoader(fileName, text, jobFiles, new LinkedHashMap<>(set)).load();
  }

  private Matrix load() {
    YamlNode root = new YamlReader(file, "in a matrix", problems).read(text);
    if (root == null) {
      throw new MatrixException(
          new Problem(
              new Position(file, 1, 1),
              "(yaml)",
              "the file is empty: a matrix needs at least name and workload"));
    }
    YamlNode.Mapping written = in.mapping(root, "(top level)");
    if (written == null) {
      problems.throwIfAny();
    }
    in.onlyKeys(written, "", TOP_KEYS);
    Variables variables = new Variables(in);
    ParamsReader paramsReader = new ParamsReader(in, variables, set);
    Map<String, String> params = paramsReader.read(written.get("params"));
    YamlNode.Mapping top = ParamsSubstitution.apply(in, written, params, set.given().keySet());
    String name = name(top);

    Roles roles = new Roles(in, roles(top.get("roles")));
    VariableUses uses = new VariableUses(in, variables);
    KnobKeys knobKeys = new KnobKeys(in, roles, uses);
    StepsReader steps = new StepsReader(in, roles, variables, uses, StepsReader.Scope.EXPERIMENT);
    List<Step> setup = steps.read(top.get("setup"), "setup");
    List<Step> teardown = steps.read(top.get("teardown"), "teardown");
    StepsReader cellSteps = new StepsReader(in, roles, variables, uses, StepsReader.Scope.CELL);
    List<Step> cellSetup = cellSteps.read(top.get("cell_setup"), "cell_setup");
    List<Step> cellTeardown = cellSteps.read(top.get("cell_teardown"), "cell_teardown");
    List<KnobSetting> knobs = new ArrayList<>();
    AxesReader axesReader = new AxesReader(in, roles, knobKeys, variables);
    Map<String, String> settings = settings(top.get("settings"), roles, knobKeys, knobs);
    List<AxisDraft> axes =
        top.get("matrix") == null ? List.of() : axesReader.read(top.get("matrix"));
    FilterReader filters = new FilterReader(in, knobKeys, variables, axes);
    List<Map<String, String>> exclude =
        top.get("exclude") == null ? List.of() : filters.excludes(top.get("exclude"));
    List<Map<String, String>> include =
        top.get("include") == null ? List.of() : filters.includes(top.get("include"), exclude);
    // Narrowed after exclude and include are checked against the axes as written, before the
    // workload's checks read the parameters' values.
    AxisOverrides narrowing = new AxisOverrides(in, knobKeys, variables, set);
    narrowing.narrow(axes, writtenAxisKeys(written));
    exclude = narrowing.excludes(exclude);
    include = narrowing.includes(include, axes, exclude);
    paramsReader.checkAgainst(axes);
    Workload workload = null;
    if (top.get("workload") == null) {
      in.problem(top.position(), "workload", "required key is missing");
    } else {
      workload = new WorkloadReader(in, roles, variables, uses, jobFiles).read(top.get("workload"));
    }
    StepsReader trialSteps = new StepsReader(in, roles, variables, uses, StepsReader.Scope.TRIAL);
    List<TrialStep> beforeTrial =
        trialSteps.readTrialSteps(top.get("before_trial"), "before_trial");
    List<TrialStep> afterTrial = trialSteps.readTrialSteps(top.get("after_trial"), "after_trial");
    List<Monitor> monitors = new MonitorsReader(in, roles, uses).read(top.get("monitors"));
    uses.check();
    for (AxisDraft a : axes) {
      knobs.addAll(a.knobSettings());
    }
    KnobConflicts.check(knobs, roles, in);

    RepeatRule repeatRule =
        new RepeatReader(in, MAX_REPEAT)
            .read(overridable(top, "repeat"), set.keyOf("repeat"), top.get("metric"), axes);
    int repeat = repeatRule.max();
    int warmup = (int) optionalInteger(top, "warmup", 0, MAX_REPEAT, 0);
    int boots = boots(top, repeatRule, settings, axes);
    Matrix.BootOrder bootOrder = bootOrder(top.get("boots"));
    Matrix.Order order = order(overridable(top, "order"));
    long seed =
        seed(
            overridable(top, "seed"),
            order,
            boots > 1 && bootOrder == Matrix.BootOrder.INTERLEAVED);
    set.reportUntaken(in, start(), paramsReader.declared(), axisNames(axes));
    Search search = search(top, axes);
    Matrix matrix =
        new Matrix(
            file,
            text,
            name,
            optionalText(top, "description"),
            roles.asMap(),
            hosts(top.get("hosts")),
            setup,
            teardown,
            cellSetup,
            cellTeardown,
            settings,
            axes(axes),
            List.copyOf(exclude),
            List.copyOf(include),
            repeat,
            repeatRule,
            warmup,
            boots,
            bootOrder,
            likeBoots(top.get("boots")),
            order,
            seed,
            beforeTrial,
            afterTrial,
            monitors,
            workload,
            entryPosition(top, "matrix"),
            entryPosition(top, "exclude"),
            new Recovery(
                (int)
                    optionalInteger(
                        top, "retries", 0, Recovery.MAX_RETRIES, Recovery.DEFAULT.retries()),
                reconnect(top.get("reconnect"))),
            Collections.unmodifiableMap(params),
            Collections.unmodifiableMap(set.given()),
            onFlag(top.get("on_flag")),
            cacheFlag(top.get("cache_flag")),
            noise(top.get("noise")),
            search);
    if (problems.isEmpty()) {
      checkSize(matrix);
    }
    problems.throwIfAny();
    return matrix;
  }

  private Map<String, String> roles(YamlNode node) {
    Map<String, String> roles = new LinkedHashMap<>();
    if (node == null) {
      roles.put("local", "local");
      return Collections.unmodifiableMap(roles);
    }
    YamlNode.Mapping map = in.mapping(node, "roles");
    if (map != null && map.entries().isEmpty()) {
      in.problem(node.position(), "roles", "declare at least one role (or leave roles out)");
    }
    if (map != null) {
      for (YamlNode.Entry e : map.entries()) {
        String key = "roles." + e.key();
        String host = in.text(e.value(), key);
        if (!ROLE.matcher(e.key()).matches()) {
          in.problem(
              e.keyPosition(),
              key,
              "a role name is lower-case letters, digits, '_' and '-', starting with a letter");
        } else {
          if (host != null && !HOST.matcher(host).matches()) {
            in.problem(
                e.value().position(),
                key,
                "'" + host + "' is not a host name: use a name from the inventory, or local");
          }
          // Kept even with a bad host, so that its knobs are not also reported.
          roles.put(e.key(), host == null ? "" : host);
        }
      }
    }
    if (roles.isEmpty()) {
      roles.put("local", "local"); // keeps later checks from repeating the roles problem
    }
    return Collections.unmodifiableMap(roles);
  }

  private Map<String, String> settings(
      YamlNode node, Roles roles, KnobKeys knobKeys, List<KnobSetting> knobs) {
    Map<String, String> settings = new LinkedHashMap<>();
    YamlNode.Mapping map = node == null ? null : in.mapping(node, "settings");
    if (map == null) {
      return Collections.unmodifiableMap(settings);
    }
    for (YamlNode.Entry e : map.entries()) {
      String key = "settings." + e.key();
      Roles.KeyKind kind = roles.classify(e.key());
      if (kind == Roles.KeyKind.PARAMETER) {
        in.problem(
            e.keyPosition(),
            key,
            "settings hold knobs ('<role>.<knob>'); a parameter belongs in matrix");
        continue;
      }
      if (kind != Roles.KeyKind.KNOB) {
        knobKeys.reportNotKnobOrParameter(e.key(), e.keyPosition(), key);
        continue;
      }
      knobKeys.checkKey(e.key(), e.keyPosition(), key);
      if (e.value() instanceof YamlNode.Sequence) {
        in.problem(e.value().position(), key, "a list of values is an axis: put it under matrix");
        continue;
      }
      String value = in.text(e.value(), key);
      if (value != null) {
        knobKeys.checkValue(e.key(), value, e.value().position(), key);
        settings.put(e.key(), value);
        knobs.add(new KnobSetting(e.key(), e.keyPosition(), key, "settings", "settings", ""));
      }
    }
    return Collections.unmodifiableMap(settings);
  }

  private String name(YamlNode.Mapping top) {
    YamlNode node = top.get("name");
    if (node == null) {
      in.problem(top.position(), "name", "required key is missing");
      return null;
    }
    String name = in.text(node, "name");
    if (name != null && !NAME.matcher(name).matches()) {
      in.problem(
          node.position(), "name", "'" + name + "' may hold only letters, digits, '.', '_', '-'");
    }
    return name;
  }

  private String optionalText(YamlNode.Mapping top, String key) {
    YamlNode node = top.get(key);
    return node == null ? null : in.text(node, key);
  }

  private String hosts(YamlNode node) {
    if (node == null) {
      return null;
    }
    String hosts = in.text(node, "hosts");
    if (hosts != null && hosts.isBlank()) {
      in.problem(node.position(), "hosts", "give the inventory file, e.g. hosts.yaml");
    }
    return hosts;
  }

  private long optionalInteger(
      YamlNode.Mapping top, String key, long min, long max, long fallback) {
    YamlNode node = Overrides.KEYS.contains(key) ? overridable(top, key) : top.get(key);
    return node == null ? fallback : in.integer(node, set.keyOf(key), min, max, fallback);
  }

  /** The matrix's search; one with repetitions, boots or an order of its own is refused. */
  private Search search(YamlNode.Mapping top, List<AxisDraft> axes) {
    YamlNode node = top.get("search");
    Search search = new SearchReader(in).read(node, axes);
    if (node == null) {
      return null;
    }
    for (String key : List.of("repeat", "boots", "order")) {
      YamlNode other = top.get(key);
      if (other != null) {
        in.problem(
            other.position(),
            key,
            "a search runs each candidate once per round and orders its rounds itself: remove "
                + key
                + ", or remove search to run the whole grid");
      }
    }
    return search;
  }

  /**
   * {@code boots:}, checked against what it splits: the repetitions of a cell, and the kernels of
   * the roles a {@code ROLE.kernel} axis, case or setting names.
   */
  private int boots(
      YamlNode.Mapping top,
      RepeatRule repeatRule,
      Map<String, String> settings,
      List<AxisDraft> axes) {
    int repeat = repeatRule.max();
    YamlNode node = top.get("boots");
    int boots;
    if (node instanceof YamlNode.Mapping map) {
      in.onlyKeys(map, "boots", List.of("count", "order", "like"));
      YamlNode count = map.get("count");
      if (count == null && map.get("like") == null) {
        in.problem(map.position(), "boots", "boots needs a count, e.g. {count: 2, order: grouped}");
      }
      boots = count == null ? 1 : (int) in.integer(count, "boots.count", 1, MAX_REPEAT, 1);
    } else {
      boots = (int) optionalInteger(top, "boots", 1, MAX_REPEAT, 1);
    }
    if (boots <= 1 || node == null) {
      return boots;
    }
    boolean kernels = settings.keySet().stream().anyMatch(Kernels::isKey);
    for (AxisDraft a : axes) {
      kernels |= Kernels.isKey(a.name);
      for (Map<String, String> c : a.cases.values()) {
        kernels |= c.keySet().stream().anyMatch(Kernels::isKey);
      }
    }
    if (!kernels) {
      in.problem(
          node.position(),
          "boots",
          boots
              + " boots the kernels of a ROLE.kernel axis or setting, and there is none;"
              + " to boot one host's kernel again and again, write e.g."
              + " settings: {client.kernel: default}");
    } else if (repeatRule.adaptive() && !repeatRule.compares()) {
      // With compare: the rule counts boots (a group skips the boots its pilot boots need not).
      in.problem(
          node.position(),
          "boots",
          "boots splits a fixed number of repetitions across its boots, and repeat stops each"
              + " cell at its target: give repeat a count, e.g. repeat: "
              + repeat);
    } else if (boots > repeat) {
      in.problem(
          node.position(),
          "boots",
          boots
              + " splits the repetitions of each cell across its boots, and repeat is "
              + repeat
              + ": give repeat at least "
              + boots);
    }
    return boots;
  }

  /** {@code boots.like}: true unless the file says false. */
  private boolean likeBoots(YamlNode node) {
    if (!(node instanceof YamlNode.Mapping map) || map.get("like") == null) {
      return true;
    }
    String text = in.text(map.get("like"), "boots.like");
    if (text != null && !text.equals("true") && !text.equals("false")) {
      in.problem(
          map.get("like").position(),
          "boots.like",
          "'"
              + text
              + "' is not true or false: like: false measures the start release on the boot"
              + " the experiment starts on");
    }
    return !"false".equals(text);
  }

  /** {@code boots.order}: interleaved unless the file says grouped. */
  private Matrix.BootOrder bootOrder(YamlNode node) {
    if (!(node instanceof YamlNode.Mapping map) || map.get("order") == null) {
      return Matrix.BootOrder.INTERLEAVED;
    }
    String text = in.text(map.get("order"), "boots.order");
    for (Matrix.BootOrder o : Matrix.BootOrder.values()) {
      if (o.text().equals(text)) {
        return o;
      }
    }
    List<String> names = List.of("interleaved", "grouped");
    if (text != null) {
      in.problem(
          map.get("order").position(),
          "boots.order",
          "'"
              + text
              + "' is not an order of boots: interleaved or grouped"
              + DidYouMean.hint(text, names));
    }
    return Matrix.BootOrder.INTERLEAVED;
  }

  /** A top-level key's node, or the {@code --set} value that replaces it. */
  private YamlNode overridable(YamlNode.Mapping top, String key) {
    return set.keyNode(top, key, start());
  }

  private Position start() {
    return new Position(file, 1, 1);
  }

  /** The key of each axis as the file writes it (before the params are put in), by position. */
  private static Map<Position, String> writtenAxisKeys(YamlNode.Mapping written) {
    Map<Position, String> keys = new LinkedHashMap<>();
    if (written.get("matrix") instanceof YamlNode.Mapping matrix) {
      for (YamlNode.Entry e : matrix.entries()) {
        keys.put(e.keyPosition(), e.key());
      }
    }
    return keys;
  }

  /** Every name a {@code --set} may give an axis by, for suggestions. */
  private static List<String> axisNames(List<AxisDraft> axes) {
    List<String> names = new ArrayList<>();
    for (AxisDraft a : axes) {
      names.add(a.label == null ? a.name : a.label);
    }
    return names;
  }

  private Duration reconnect(YamlNode node) {
    if (node == null) {
      return Recovery.DEFAULT.reconnect();
    }
    String text = in.text(node, "reconnect");
    if (text != null) {
      try {
        return Durations.parse(text);
      } catch (IllegalArgumentException e) {
        in.problem(node.position(), "reconnect", e.getMessage());
      }
    }
    return Recovery.DEFAULT.reconnect();
  }

  private Matrix.Order order(YamlNode node) {
    if (node == null) {
      return Matrix.Order.SEQUENTIAL;
    }
    String order = in.text(node, set.keyOf("order"));
    if (order == null) {
      return Matrix.Order.SEQUENTIAL;
    }
    if (!ORDERS.contains(order)) {
      in.problem(
          node.position(),
          set.keyOf("order"),
          "'"
              + order
              + "' is not an order (orders: "
              + String.join(", ", ORDERS)
              + ")"
              + DidYouMean.hint(order, ORDERS));
      return Matrix.Order.SEQUENTIAL;
    }
    return Matrix.Order.values()[ORDERS.indexOf(order)];
  }

  private OnFlag onFlag(YamlNode node) {
    return choice(
        node,
        "on_flag",
        OnFlag.values(),
        OnFlag::text,
        OnFlag.KEEP,
        "what to do with a flagged trial");
  }

  private double cacheFlag(YamlNode node) {
    String text = node == null ? null : in.text(node, "cache_flag");
    if (text == null) {
      return Matrix.DEFAULT_CACHE_FLAG;
    }
    Matcher m = PERCENT.matcher(text.trim());
    double pct = m.matches() ? Double.parseDouble(m.group(1)) : -1;
    if (pct < 0 || pct > 100) {
      in.problem(
          node.position(),
          "cache_flag",
          "'"
              + text
              + "' is not a percentage from 0% to 100%, such as 50%: a trial whose block devices"
              + " moved less than that share of the workload's bytes is flagged cache (0% never)");
      return Matrix.DEFAULT_CACHE_FLAG;
    }
    return pct / 100;
  }

  private Noise noise(YamlNode node) {
    return choice(
        node,
        "noise",
        Noise.values(),
        Noise::text,
        Noise.WARN,
        "what to do when a noise check warns");
  }

  /** One of {@code values} by its text; {@code fallback} when left out or not one of them. */
  private <E> E choice(
      YamlNode node, String key, E[] values, Function<E, String> text, E fallback, String what) {
    String written = node == null ? null : in.text(node, key);
    if (written == null) {
      return fallback;
    }
    List<String> names = Arrays.stream(values).map(text).toList();
    if (!names.contains(written)) {
      in.problem(
          node.position(),
          key,
          "'"
              + written
              + "' is not "
              + what
              + " ("
              + String.join(", ", names)
              + ")"
              + DidYouMean.hint(written, names));
      return fallback;
    }
    return values[names.indexOf(written)];
  }

  /** The seed; one is drawn when the file gives none and the order or the boots' order uses it. */
  private long seed(YamlNode node, Matrix.Order order, boolean interleavedBoots) {
    if (node != null) {
      return in.integer(node, set.keyOf("seed"), Long.MIN_VALUE, Long.MAX_VALUE, 0);
    }
    if (!order.seeded() && !interleavedBoots) {
      return 0;
    }
    SecureRandom random = new SecureRandom();
    long seed;
    do {
      seed = random.nextLong() & 0x7fff_ffffL;
    } while (seed == 0);
    return seed;
  }

  private static List<Axis> axes(List<AxisDraft> drafts) {
    List<Axis> axes = new ArrayList<>();
    for (AxisDraft d : drafts) {
      Map<String, Map<String, String>> cases = new LinkedHashMap<>();
      d.cases.forEach((name, entries) -> cases.put(name, Collections.unmodifiableMap(entries)));
      axes.add(
          new Axis(
              d.name,
              d.label,
              d.kind,
              List.copyOf(d.valueTexts()),
              Collections.unmodifiableMap(cases),
              d.position));
    }
    return List.copyOf(axes);
  }

  /**
   * Refuses axes that cross to too many cells before anything is expanded; what exclusions leave is
   * counted by the plan stage ({@code plan.ExperimentPlan}).
   */
  private void checkSize(Matrix m) {
    long product = 1;
    for (Axis a : m.axes()) {
      product *= a.values().size();
      if (product > MAX_CELLS) {
        break;
      }
    }
    if (product > MAX_CELLS) {
      in.problem(
          m.matrixAt(),
          "matrix",
          "the axes cross to more than " + MAX_CELLS + " cells; split the experiment");
    }
  }

  private static Position entryPosition(YamlNode.Mapping top, String key) {
    YamlNode.Entry e = top.byKey().get(key);
    return e == null ? top.position() : e.keyPosition();
  }
}
