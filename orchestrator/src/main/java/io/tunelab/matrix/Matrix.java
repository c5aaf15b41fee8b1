package io.tunelab.matrix;

import io.tunelab.yaml.Position;
import java.util.List;
import java.util.Map;

/**
 * A loaded and validated experiment matrix. Keys of {@code settings}, knob axes and case entries
 * are role-qualified knob names as written ({@code disk.block.${dev}.scheduler}).
 *
 * @param source the file name, for messages
 * @param text the full text of the file, stored with the experiment
 * @param roles role to host name, in declared order ({@code local -> local} when absent)
 * @param hostsFile the {@code hosts:} entry, or null
 * @param repeat the most measured repetitions a cell gets: {@code repeatRule.max()}
 * @param repeatRule when a cell has had enough repetitions
 * @param boots how many times each kernel of a {@code ROLE.kernel} axis or setting is booted; the
 *     repetitions of a cell are split across its boots
 * @param bootOrder how those boots follow each other
 * @param likeBoots whether a host whose kernel is an axis is booted into its start release too
 *     before that release is measured, so that every release is measured on boots made the same way
 * @param seed the shuffle seed; when the file gives none, one is drawn and recorded here
 * @param cellSetup steps before the first trial of a cell, again after a cell change
 * @param cellTeardown steps after the last trial of a cell (and after a cell step failed)
 * @param beforeTrial steps before every trial, in the order written
 * @param afterTrial steps after every trial, in the order written
 * @param monitors tools sampling hosts while the jobs run
 * @param include extra cells, each a map of axis or knob name to value
 * @param matrixAt where the {@code matrix:} key stands (the top of the file when absent), for
 *     problems the plan stage finds
 * @param excludeAt where the {@code exclude:} key stands (the top of the file when absent)
 * @param recovery retries of a trial a lost host interrupted, and how long to reconnect
 * @param params the {@code params:} entries with the overrides applied, in the order written; the
 *     rest of the matrix holds their values already, where it named them as {@code ${name}}
 * @param overrides the {@code --set NAME=VALUE} the matrix was loaded with, in the order given:
 *     stored with the experiment, so that {@code resume} loads the same matrix
 * @param onFlag what a run does with a trial its health checks flagged
 * @param cacheFlag the share of the workload's bytes the block devices must move in a trial, below
 *     which the trial is flagged {@code cache} (0.5; 0 never flags)
 * @param noise what a run does when the hosts' noise checks warn before it starts
 * @param search the best cell for an objective instead of every cell; null for the whole grid
 */
public record Matrix(
    String source,
    String text,
    String name,
    String description,
    Map<String, String> roles,
    String hostsFile,
    List<Step> setup,
    List<Step> teardown,
    List<Step> cellSetup,
    List<Step> cellTeardown,
    Map<String, String> settings,
    List<Axis> axes,
    List<Map<String, String>> exclude,
    List<Map<String, String>> include,
    int repeat,
    RepeatRule repeatRule,
    int warmup,
    int boots,
    BootOrder bootOrder,
    boolean likeBoots,
    Order order,
    long seed,
    List<TrialStep> beforeTrial,
    List<TrialStep> afterTrial,
    List<Monitor> monitors,
    Workload workload,
    Position matrixAt,
    Position excludeAt,
    Recovery recovery,
    Map<String, String> params,
    Map<String, String> overrides,
    OnFlag onFlag,
    double cacheFlag,
    Noise noise,
    Search search) {
  /** The {@code cache_flag} of a matrix that gives none. */
  public static final double DEFAULT_CACHE_FLAG = 0.5;

  /**
   * This matrix with {@code seed}: a resumed experiment goes on with the seed it recorded, not one
   * drawn again for a file that gives none (a search replays its rounds from it).
   */
  public Matrix withSeed(long seed) {
    return new Matrix(
        source,
        text,
        name,
        description,
        roles,
        hostsFile,
        setup,
        teardown,
        cellSetup,
        cellTeardown,
        settings,
        axes,
        exclude,
        include,
        repeat,
        repeatRule,
        warmup,
        boots,
        bootOrder,
        likeBoots,
        order,
        seed,
        beforeTrial,
        afterTrial,
        monitors,
        workload,
        matrixAt,
        excludeAt,
        recovery,
        params,
        overrides,
        onFlag,
        cacheFlag,
        noise,
        search);
  }

  /** How the boots of {@code boots: N} follow each other across the releases. */
  public enum BootOrder {
    /**
     * In rounds: each release's first boot, then each one's second, …, the releases in a fresh
     * seeded order each round (A1 B1 B2 A2), so a drift over the night is not charged to one.
     */
    INTERLEAVED,
    /** Each release's boots one after the other (A1 A2 B1 B2): the fewest boots. */
    GROUPED;

    /** As written in a matrix: {@code grouped}. */
    public String text() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** The order trials run in. */
  public enum Order {
    SEQUENTIAL,
    SHUFFLE,
    FEWEST_CHANGES,
    /** Every cell once per round, each round in a fresh seeded order; {@code repeat} rounds. */
    ROUNDS;

    /** Whether the order draws on the seed. */
    public boolean seeded() {
      return this == SHUFFLE || this == ROUNDS;
    }

    /** The order as written in a matrix and recorded: {@code fewest-changes}. */
    public String text() {
      return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
  }
}
