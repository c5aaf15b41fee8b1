package io.tunelab.store;

import java.util.List;
import java.util.OptionalLong;

/**
 * Everything the end of one trial writes, stored in one transaction (one fsync): the trial's
 * outcome, the attempts not yet recorded (the one that ended it), its {@code trial} line in {@code
 * events}, and the start of the trial that follows at once. Either all of it is stored or none.
 *
 * @param event the line the run printed for the trial, kept as its {@code trial} event; null for
 *     none
 * @param startNext the trial to mark running in the same commit, when it follows at once
 * @param hosts what each host ran during the trial (kernel, boot id, command line)
 */
public record TrialCommit(
    long trialId,
    TrialResult result,
    List<Attempt> attempts,
    String event,
    OptionalLong startNext,
    List<TrialHost> hosts) {

  public TrialCommit {
    if (!result.status().finished()) {
      throw new IllegalArgumentException("a trial cannot finish as " + result.status());
    }
    attempts = List.copyOf(attempts);
    hosts = List.copyOf(hosts);
  }

  /** A commit that records no host. */
  public TrialCommit(
      long trialId,
      TrialResult result,
      List<Attempt> attempts,
      String event,
      OptionalLong startNext) {
    this(trialId, result, attempts, event, startNext, List.of());
  }

  /** A trial's outcome alone: no attempt, no event, no next trial. */
  public static TrialCommit of(long trialId, TrialResult result) {
    return new TrialCommit(trialId, result, List.of(), null, OptionalLong.empty());
  }

  /** This commit, recording what {@code ran} on each host. */
  public TrialCommit withHosts(List<TrialHost> ran) {
    return new TrialCommit(trialId, result, attempts, event, startNext, ran);
  }

  /** This commit, starting {@code next} with it. */
  public TrialCommit startingNext(long next) {
    return new TrialCommit(trialId, result, attempts, event, OptionalLong.of(next), hosts);
  }
}
