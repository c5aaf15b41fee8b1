package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.store.ExperimentQueue;
import io.tunelab.store.ExperimentQueue.Claim;
import io.tunelab.store.ExperimentStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;
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
      "Without --drain the worker waits for new experiments; with it, it exits once the queue"
          + " holds none it may take. Exit code 1 when a trial failed, 3 when this testbed"
          + " refused an experiment (it goes back to the queue)."
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

  @Mixin RunOptions options;

  @ParentCommand TunelabCommand top;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    String bed = TestbedName.of(testbed, options.hosts.file);
    String me = TestbedName.host() + ":" + ProcessHandle.current().pid();
    int worst = 0;
    int ran = 0;
    try (ExperimentQueue q = Databases.queue(options.db)) {
      q.register(me, queue, bed, lease);
      out.printf("worker %s on testbed %s takes queue %s%n", me, bed, queue);
      out.flush();
      while (true) {
        Optional<Claim> claim = q.claim(queue, bed);
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
            c.earlierClaims() > 0 ? ", left by a worker that stopped: resuming it" : "");
        out.flush();
        int code;
        try {
          code =
              ResumeCommand.resume(
                  options,
                  Long.toString(c.experimentId()),
                  out,
                  top.terminal,
                  options.maxTime.value());
        } catch (TunelabException e) {
          q.release(c.experimentId(), false);
          out.println("error: " + e.getMessage());
          out.printf("experiment %d goes back to queue %s%n", c.experimentId(), queue);
          throw e;
        }
        ran++;
        worst = Math.max(worst, code);
        boolean ended = ended(q, c.experimentId());
        q.release(c.experimentId(), ended);
        if (!ended) {
          // Stopped by --max-time or Ctrl-C: this worker is done; the rest waits in the queue.
          out.printf("experiment %d goes back to queue %s%n", c.experimentId(), queue);
          return worst;
        }
      }
    }
  }

  private static boolean ended(ExperimentQueue q, long id) {
    String status =
        q.entries().stream()
            .filter(e -> e.experimentId() == id)
            .map(ExperimentQueue.Entry::status)
            .findFirst()
            .orElse("");
    return status.equals(ExperimentStatus.FINISHED.text())
        || status.equals(ExperimentStatus.FAILED.text());
  }
}
