package io.tunelab.store;

import io.tunelab.plan.ExperimentPlan;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The queue of a database many testbeds share: experiments submitted to a named queue, claimed one
 * at a time by workers under a lease they renew, and taken up again by a worker of the same testbed
 * when a lease runs out (docs/fleet.md).
 */
public interface ExperimentQueue extends AutoCloseable {
  /**
   * Plans the experiment and queues it on {@code queue}, with the {@code files} it reads besides
   * its matrix that the plan does not hold (the inventory its matrix names), in one transaction;
   * returns its id.
   */
  long submit(ExperimentPlan plan, String toolVersion, String queue, List<StoredFile> files);

  /**
   * Makes {@code worker} known (table {@code workers}) and keeps it, and the experiment it holds,
   * alive: a heartbeat renews both leases until {@link #close}.
   */
  void register(WorkerSpec worker);

  /**
   * Claims the first experiment of {@code queue} that is queued, or whose lease ran out on {@code
   * testbed}, leaving out {@code skip}; empty when there is none. Skips rows another worker is
   * claiming at that moment; marks done, and never hands out, a row whose experiment has ended.
   */
  Optional<Claim> claim(String queue, String testbed, Set<Long> skip);

  /**
   * Ends the registered worker's claim, if it still holds it (its token is the row's): returns
   * false, changing nothing, when it does not. {@code DONE} marks the row done (whoever holds it,
   * once the experiment has ended); {@code STOPPED} puts it back at once, for this testbed when the
   * experiment had started; {@code REFUSED} puts it back too, counting a refusal with {@code
   * reason}, and holds it once {@link WorkerSpec#maxClaims} claims in a row were refused.
   */
  boolean release(Claim claim, Outcome outcome, String reason);

  /** Whether the heartbeat found that {@code claim} is no longer this worker's. */
  boolean lost(Claim claim);

  /**
   * An experiment of testbed {@code testbed} that ran on a host not at {@code addresses}, as {@code
   * experiment N ran on ADDRESS}: the name is another testbed's too. Empty when none did.
   */
  Optional<String> sharedName(String testbed, Set<String> addresses);

  /** Every queue row of {@code queue} (all queues when null), oldest first. */
  List<Entry> entries(String queue);

  /** Every worker the database has seen, with its heartbeat's lease. */
  List<Worker> workers();

  /**
   * An operator's change of one row ({@code tunelab queue cancel|hold|release}); the new state or a
   * refusal saying why the row cannot change so. Cancel and hold take a claimed row from its
   * worker, which stops before its next trial.
   */
  Entry operate(long experimentId, Operation operation, String reason);

  /** Marks the registered worker stopped. */
  @Override
  void close();

  /** How a claim ended. */
  enum Outcome {
    DONE,
    STOPPED,
    REFUSED
  }

  /** What an operator does to a row. */
  enum Operation {
    CANCEL,
    HOLD,
    RELEASE
  }

  /**
   * A worker: its name ({@code HOST:PID}), queue and testbed, its lease, and how many claims in a
   * row may be refused before a row is held.
   */
  record WorkerSpec(String name, String queue, String testbed, Duration lease, int maxClaims) {}

  /**
   * One claimed experiment; {@code earlierClaims} counts the claims before this one (a worker that
   * died held it); {@code token} is this claim's, which every write of the worker names.
   */
  record Claim(long experimentId, String name, int earlierClaims, long token) {}

  /**
   * A row of the queue; {@code leaseLeftMillis} is null without a claim, negative once lost; {@code
   * reason} says why it is held or cancelled, or what the last refusal was.
   */
  record Entry(
      long experimentId,
      String name,
      String queue,
      String state,
      String status,
      String testbed,
      String worker,
      Long leaseLeftMillis,
      int claims,
      int refusals,
      String reason) {}

  /** A worker; {@code leaseLeftMillis} negative once its heartbeat has stopped for too long. */
  record Worker(
      String name,
      String queue,
      String testbed,
      String state,
      Long experimentId,
      String seenAt,
      long leaseLeftMillis) {}
}
