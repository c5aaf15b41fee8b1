package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.inventory.Inventory;
import io.tunelab.store.ClaimLost;
import io.tunelab.store.ExperimentQueue;
import io.tunelab.store.ExperimentQueue.Claim;
import io.tunelab.store.ExperimentQueue.Outcome;
import io.tunelab.store.ExperimentQueue.WorkerSpec;
import io.tunelab.store.ExperimentStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code tunelab worker --queue NAME}: claims the queue's experiments one at a time and runs them
 * on this testbed, as {@code resume} would.
 */
@Command(
    name = "worker",
    mixinStandardHelpOptions = true,
    description = {
      "Take the experiments of a queue of a PostgreSQL database (--db URL) one at a time and run"
          + " them on this testbed (--hosts). A claim holds a lease the worker renews; a worker"
          + " that dies loses it after --lease, and the experiment goes back to the queue for"
          + " this testbed, whose next worker restores the hosts and resumes it.",
      "An experiment this worker cannot run (a matrix it cannot load, a role its inventory"
          + " lacks) goes back to the queue and the worker takes the next one; one refused by"
          + " --max-claims claims in a row is held. A claim taken over by another worker after"
          + " this one's lease ran out, or cancelled or held by an operator, stops this worker"
          + " before its next trial: it restores its hosts and writes nothing more (exit 3).",
      "Without --drain the worker waits for new experiments; with it, it exits once the queue"
          + " holds none it may take. Exit code 1 when a trial failed, 2 when an experiment"
          + " could not be loaded, 3 when this testbed refused an experiment (it goes back to"
          + " the queue and the worker stops)."
    })
final class WorkerCommand implements Callable<Integer> {
  @Option(
      names = "--queue",
      required = true,
      paramLabel = "NAME",
      description = "The queue to take experiments from.")
  String queue;

  @Option(
      names = "--testbed",
      paramLabel = "NAME",
      description =
          "This testbed's name (default: the inventory's file name without .yaml, else this"
              + " machine's host name).")
  String testbed;

  @Option(
      names = "--drain",
      description = "Exit once the queue holds no experiment this worker may take.")
  boolean drain;

  @Option(
      names = "--lease",
      paramLabel = "DURATION",
      converter = DurationText.class,
      defaultValue = "60s",
      description =
          "How long a claim outlives the worker's last heartbeat (default: ${DEFAULT-VALUE};"
              + " renewed every third of it).")
  Duration lease;

  @Option(
      names = "--poll",
      paramLabel = "DURATION",
      converter = DurationText.class,
      defaultValue = "10s",
      description = "Without --drain: how often an empty queue is asked again.")
  Duration poll;

  @Option(
      names = "--max-claims",
      paramLabel = "N",
      defaultValue = "3",
      description =
          "Hold an experiment refused by N claims in a row, with the reason, instead of handing"
              + " it to the next worker (default: ${DEFAULT-VALUE}); tunelab queue release"
              + " queues it again.")
  int maxClaims;

  @Mixin RunOptions options;

  @ParentCommand TunelabCommand top;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    if (maxClaims < 1) {
      throw new TunelabException(
          TunelabException.BAD_INPUT, "--max-claims " + maxClaims + ": give 1 or more");
    }
    PrintWriter out = spec.commandLine().getOut();
    String bed = TestbedName.of(testbed, options.hosts.file);
    String me = TestbedName.host() + ":" + ProcessHandle.current().pid();
    int worst = 0;
    int ran = 0;
    // Experiments this worker could not run: the next claim leaves them to other workers.
    Set<Long> refused = new HashSet<>();
    try (ExperimentQueue q = Databases.queue(options.db)) {
      if (testbed == null) {
        refuseSharedName(q, bed);
      }
      q.register(new WorkerSpec(me, queue, bed, lease, maxClaims));
      out.printf("worker %s on testbed %s takes queue %s%n", me, bed, queue);
      out.flush();
      while (true) {
        Optional<Claim> claim = q.claim(queue, bed, refused);
        if (claim.isEmpty()) {
          if (drain) {
            out.printf("queue %s: nothing left for testbed %s; %d run here%n", queue, bed, ran);
            return worst;
          }
          Thread.sleep(poll.toMillis());
          continue;
        }
        Claim c = claim.get();
        out.printf(
            "claimed experiment %d (%s)%s%n",
            c.experimentId(),
            c.name(),
            c.earlierClaims() > 0 ? ", claimed before: resuming it" : "");
        out.flush();
        int code;
        try {
          code =
              ResumeCommand.resume(
                  options,
                  Long.toString(c.experimentId()),
                  out,
                  new ExperimentSession.Watch(top.terminal, options.maxTime.value(), c));
        } catch (ClaimLost e) {
          out.println("error: " + e.getMessage());
          throw e;
        } catch (TunelabException e) {
          out.println("error: " + e.getMessage());
          if (q.release(c, Outcome.REFUSED, firstLine(e.getMessage()))) {
            out.printf("experiment %d goes back to queue %s%n", c.experimentId(), queue);
          }
          if (e.exitCode() != TunelabException.BAD_INPUT && !(e instanceof UnfitInventory)) {
            // This testbed refused it (a host unreachable, a preflight): it would refuse the
            // next one too, so it stops rather than drain the queue.
            throw e;
          }
          refused.add(c.experimentId());
          worst = Math.max(worst, e.exitCode());
          continue;
        }
        ran++;
        worst = Math.max(worst, code);
        boolean ended = ended(q, c.experimentId());
        q.release(c, ended ? Outcome.DONE : Outcome.STOPPED, null);
        if (!ended) {
          // Stopped by --max-time or Ctrl-C: this worker is done; the rest waits in the queue.
          out.printf("experiment %d goes back to queue %s%n", c.experimentId(), queue);
          return worst;
        }
      }
    }
  }

  /**
   * A default name (the inventory's file name, else this machine's) is refused when experiments of
   * that testbed ran on hosts this inventory lacks: two testbeds of one name would take up each
   * other's experiments on the wrong hosts.
   */
  private void refuseSharedName(ExperimentQueue q, String bed) {
    Inventory inventory =
        options.hosts.file == null ? Inventory.empty() : Inventories.read(options.hosts.file);
    q.sharedName(bed, Inventories.addresses(inventory))
        .ifPresent(
            other -> {
              throw new TunelabException(
                  TunelabException.BAD_INPUT,
                  "testbed name "
                      + bed
                      + " (the default: "
                      + (options.hosts.file == null
                          ? "this machine's host name"
                          : "the file name of " + options.hosts.file)
                      + ") is another testbed's: "
                      + other
                      + ", which is not in this inventory; give this worker --testbed NAME");
            });
  }

  private static String firstLine(String message) {
    String m = String.valueOf(message);
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  private static boolean ended(ExperimentQueue q, long id) {
    String status =
        q.entries(null).stream()
            .filter(e -> e.experimentId() == id)
            .map(ExperimentQueue.Entry::status)
            .findFirst()
            .orElse("");
    return status.equals(ExperimentStatus.FINISHED.text())
        || status.equals(ExperimentStatus.FAILED.text());
  }
}
