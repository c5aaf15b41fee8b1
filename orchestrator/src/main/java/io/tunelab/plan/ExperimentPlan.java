package io.tunelab.plan;

import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixException;
import io.tunelab.matrix.MatrixLoader;
import io.tunelab.matrix.OnFlag;
import io.tunelab.matrix.RepeatRule;
import io.tunelab.matrix.Step;
import io.tunelab.matrix.Substitution;
import io.tunelab.matrix.Workload;
import io.tunelab.workload.WorkloadPlan;
import io.tunelab.workload.WorkloadPlanner;
import io.tunelab.yaml.Problem;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The middle stage: a matrix expanded into cells and ordered into trials. {@code tunelab plan}
 * prints it, the store writes it before the first trial, and the runner walks it.
 *
 * @param order {@code sequential}, {@code shuffle} or {@code fewest-changes}, as recorded
 * @param trials in run order; {@link Trial#cellOrdinal()} refers to {@link Cell#ordinal()}
 * @param workload the workload template every trial resolves with its variables
 * @param overrides the {@code --set NAME=VALUE} the matrix was loaded with, stored beside its text
 * @param repeatRule when a cell has had enough of its {@code repeat} (the most) repetitions
 * @param onFlag the matrix's {@code on_flag}, stored: the statistics leave flagged trials out by it
 */
public record ExperimentPlan(
    String name,
    String description,
    String matrixYaml,
    String matrixPath,
    Matrix.Order order,
    long seed,
    int repeat,
    int warmup,
    List<Cell> cells,
    List<Trial> trials,
    Workload workload,
    Map<String, String> overrides,
    RepeatRule repeatRule,
    OnFlag onFlag) {

  /** A builder: the experiment's name, then its plan. */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * Builds an {@link ExperimentPlan}: sequential order, seed 0, one repetition and no warm-up, no
   * workload, no overrides, a fixed repeat and {@code on_flag: keep} until told.
   */
  public static final class Builder {
    private final String name;
    private String description;
    private String matrixYaml = "";
    private String matrixPath;
    private Matrix.Order order = Matrix.Order.SEQUENTIAL;
    private long seed;
    private int repeat = 1;
    private int warmup;
    private List<Cell> cells = List.of();
    private List<Trial> trials = List.of();
    private Workload workload;
    private Map<String, String> overrides = Map.of();
    private RepeatRule repeatRule;
    private OnFlag onFlag = OnFlag.KEEP;

    private Builder(String name) {
      this.name = name;
    }

    public Builder description(String v) {
      description = v;
      return this;
    }

    /** The matrix's text and where it was read from. */
    public Builder matrix(String yaml, String path) {
      matrixYaml = yaml;
      matrixPath = path;
      return this;
    }

    public Builder order(Matrix.Order v, long seedOfOrder) {
      order = v;
      seed = seedOfOrder;
      return this;
    }

    /** Measured repetitions per cell, and warm-up trials before them. */
    public Builder repeat(int measured, int warmups) {
      repeat = measured;
      warmup = warmups;
      return this;
    }

    public Builder cells(List<Cell> v) {
      cells = v;
      return this;
    }

    public Builder trials(List<Trial> v) {
      trials = v;
      return this;
    }

    public Builder workload(Workload v) {
      workload = v;
      return this;
    }

    public Builder overrides(Map<String, String> v) {
      overrides = v;
      return this;
    }

    public Builder repeatRule(RepeatRule v) {
      repeatRule = v;
      return this;
    }

    public Builder onFlag(OnFlag v) {
      onFlag = v;
      return this;
    }

    public ExperimentPlan build() {
      return new ExperimentPlan(
          name,
          description,
          matrixYaml,
          matrixPath,
          order,
          seed,
          repeat,
          warmup,
          cells,
          trials,
          workload,
          overrides,
          repeatRule != null ? repeatRule : RepeatRule.fixed(repeat, null),
          onFlag);
    }
  }

  /** The experiment alone, without cells or trials: a search stores them as it draws them. */
  public ExperimentPlan withoutTrials() {
    return new ExperimentPlan(
        name,
        description,
        matrixYaml,
        matrixPath,
        order,
        seed,
        repeat,
        warmup,
        List.of(),
        List.of(),
        workload,
        overrides,
        repeatRule,
        onFlag);
  }

  /** Expands and orders a loaded matrix; refuses one whose exclusions leave nothing or too much. */
  public static ExperimentPlan of(Matrix m) {
    checkedCount(m);
    List<Cell> cells = MatrixExpander.list(m);
    checkWorkloads(m, cells);
    List<Trial> trials = trials(m, cells, m.order());
    return new ExperimentPlan(
        m.name(),
        m.description(),
        m.text(),
        m.source(),
        m.order(),
        m.seed(),
        m.repeat(),
        m.warmup(),
        cells,
        trials,
        m.workload(),
        m.overrides(),
        m.repeatRule(),
        m.onFlag());
  }

  /**
   * The trials of {@code cells} (all of the matrix's, in ordinal order) in {@code order}: with
   * kernels, kernel-major; {@code fewest-changes} walks the cells as {@link FewestChanges} says,
   * and {@code shuffle} and {@code rounds} keep the cells of equal cell-step values together
   * ({@link CellStepValues}).
   */
  public static List<Trial> trials(Matrix m, List<Cell> cells, Matrix.Order order) {
    int count = cells.size();
    BootPlan boots = BootPlan.of(m);
    CellStepValues steps = CellStepValues.of(m);
    int[] walk = order == Matrix.Order.FEWEST_CHANGES ? FewestChanges.walk(m, cells, steps) : null;
    int[] parts = null;
    if (order.seeded() && !steps.none()) {
      Map<List<String>, Integer> partIds = new HashMap<>();
      parts = new int[count];
      for (int c = 0; c < count; c++) {
        parts[c] = partIds.computeIfAbsent(steps.of(cells.get(c)), k -> partIds.size());
      }
      if (partIds.size() == 1) {
        parts = null;
      }
    }
    int[] groups = null;
    int groupCount = 1;
    int rounds = 1;
    int[] blocks = null;
    if (!boots.none()) {
      // Groups in the order the cells first ask for them: the first needs no boot when the
      // hosts already run it.
      Map<List<String>, Integer> groupIds = new LinkedHashMap<>();
      groups = new int[count];
      for (int c = 0; c < count; c++) {
        groups[c] = groupIds.computeIfAbsent(boots.group(cells.get(c)), k -> groupIds.size());
      }
      groupCount = groupIds.size();
      rounds = m.boots();
      if (rounds > 1 && m.bootOrder() == Matrix.BootOrder.INTERLEAVED) {
        blocks = PlanBuilder.interleaved(groupCount, rounds, m.seed());
      }
    }
    return PlanBuilder.build(
        new PlanBuilder.Blocks(groups, groupCount, rounds, blocks),
        count,
        m.repeat(),
        m.warmup(),
        order,
        m.seed(),
        walk,
        parts);
  }

  /** The jobs of one trial of {@code cell}. */
  public WorkloadPlan workloadOf(Cell cell, Map<String, String> captures, int rep) {
    return WorkloadPlanner.plan(workload, cell.trialVars(captures, rep));
  }

  /** The variables setup and cell steps capture, which a plan cannot know before a run. */
  public static Set<String> capturedNames(Matrix m) {
    Set<String> names = new LinkedHashSet<>();
    Stream.of(m.setup(), m.cellSetup())
        .flatMap(List::stream)
        .map(Step::capture)
        .filter(c -> c != null)
        .forEach(names::add);
    return names;
  }

  /**
   * Resolves every cell's workload before any host is touched, so a bad value exits 2; what setup
   * and cell steps will capture is not known yet and stands in as a placeholder.
   */
  private static void checkWorkloads(Matrix m, List<Cell> cells) {
    Map<String, String> captures = new LinkedHashMap<>();
    capturedNames(m).forEach(c -> captures.put(c, WorkloadPlanner.placeholder()));
    // The check reads only the variables the workload names: a cell that agrees with one checked
    // already on all of those passes or fails as it did, so only new combinations are checked.
    // Every name the matrix's text refers to stands in for the workload's (more, never fewer).
    List<String> names = referencedNames(m.text());
    Set<List<String>> checked = new HashSet<>();
    for (Cell cell : cells) {
      if (names != null) {
        String[] key = new String[names.size()];
        for (int i = 0; i < key.length; i++) {
          key[i] = cell.vars().get(names.get(i));
        }
        if (!checked.add(Arrays.asList(key))) {
          continue;
        }
      }
      WorkloadPlanner.check(m.workload(), cell.trialVars(captures, 1), captures.keySet());
    }
  }

  /** The names {@code ${…}} refers to anywhere in the matrix text; null when that is unknown. */
  private static List<String> referencedNames(String matrixText) {
    if (matrixText == null) {
      return null;
    }
    try {
      return List.copyOf(Substitution.names(matrixText));
    } catch (IllegalArgumentException e) {
      return null; // a `${` the matrix's parser reads otherwise, in a comment say: check all
    }
  }

  /**
   * The number of cells, counted without making them (exit 2 with the matrix's position when
   * exclusions remove every cell or leave more trials than a plan may hold).
   */
  public static int checkedCount(Matrix m) {
    long cells = MatrixExpander.count(m);
    if (cells == 0) {
      throw new MatrixException(
          new Problem(m.excludeAt(), "exclude", "removes every cell of the matrix"));
    }
    int perCell = m.warmup() + m.repeat();
    if (cells * perCell > MatrixLoader.MAX_TRIALS) {
      throw new MatrixException(
          new Problem(
              m.matrixAt(),
              "matrix",
              cells
                  + " cells of "
                  + perCell
                  + " trials each exceed "
                  + MatrixLoader.MAX_TRIALS
                  + " trials; split the experiment"));
    }
    return (int) cells;
  }

  /** The cells one at a time, for listing a large plan without holding it. */
  public static Stream<Cell> cells(Matrix m) {
    return MatrixExpander.stream(m);
  }

  /**
   * {@code sequential}, {@code shuffle}, {@code fewest-changes} or {@code rounds}, as the store
   * records it.
   */
  public String orderName() {
    return order.text();
  }
}
