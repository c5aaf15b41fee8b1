package io.tunelab.store;

import io.tunelab.plan.ExperimentPlan;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The queue of a database many testbeds share: experiments submitted to a named queue, claimed one
 * at a time by workers under a lease they renew, and taken up again by a worker of the same testbed
 * when a lease runs out (docs/fleet.md).
 */
public interface ExperimentQueue extends AutoCloseable {
  /** Plans the experiment and queues it on {@code queue}, in one transaction; returns its id. */
  long submit(ExperimentPlan plan, String toolVersion, String queue);

  /**
   * Makes {@code worker} known (table {@code workers}) and keeps it, and the experiment it holds,
   * alive: a heartbeat renews both leases until {@link #close}.
   */
  void register(String worker, String queue, String testbed, Duration lease);

  /**
   * Claims the first experiment of {@code queue} that is queued, or whose lease ran out on {@code
   * testbed}; empty when there is none. Skips rows another worker is claiming at that moment.
   */
  Optional<Claim> claim(String queue, String testbed);

  /**
   * Ends the registered worker's claim: {@code done} marks the row done; otherwise it goes back to
   * the queue at once, for this testbed when the experiment had started.
   */
  void release(long experimentId, boolean done);

  /** Every queue row, oldest first, with its lease as the server's clock counts it now. */
  List<Entry> entries();

  /** Every worker the database has seen, with its heartbeat's lease. */
  List<Worker> workers();

  /** Marks the registered worker stopped. */
  @Override
  void close();

  /**
   * One claimed experiment; {@code earlierClaims} counts the claims before this one (a worker that
   * died held it).
   */
  record Claim(long experimentId, String name, int earlierClaims) {}

  /** A row of the queue; {@code leaseLeftMillis} is null without a claim, negative once lost. */
  record Entry(
      long experimentId,
      String name,
      String queue,
      String state,
      String status,
      String testbed,
      String worker,
      Long leaseLeftMillis,
      int claims) {}

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
