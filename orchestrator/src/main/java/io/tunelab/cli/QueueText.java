package io.tunelab.cli;

import io.tunelab.store.ExperimentQueue.Entry;
import io.tunelab.store.ExperimentQueue.Worker;
import java.util.List;
import java.util.Locale;

/** The queue and the workers of a shared database, as {@code tunelab status} prints them. */
final class QueueText {
  private QueueText() {}

  static String render(List<Entry> entries, List<Worker> workers) {
    StringBuilder b = new StringBuilder();
    if (!entries.isEmpty()) {
      b.append("\nqueue:\n");
      for (Entry e : entries) {
        b.append(
            String.format(
                Locale.ROOT,
                "  %d %s  queue %s  %s (%s)%s%s%n",
                e.experimentId(),
                e.name(),
                e.queue(),
                e.state(),
                e.status(),
                e.testbed() == null ? "" : "  testbed " + e.testbed(),
                e.state().equals("claimed") ? "  " + e.worker() + lease(e.leaseLeftMillis()) : ""));
      }
    }
    if (!workers.isEmpty()) {
      b.append("\nworkers:\n");
      for (Worker w : workers) {
        b.append(
            String.format(
                Locale.ROOT,
                "  %s  queue %s  testbed %s  %s%s  seen %s%s%n",
                w.name(),
                w.queue(),
                w.testbed(),
                w.state(),
                w.experimentId() == null ? "" : " experiment " + w.experimentId(),
                w.seenAt(),
                w.state().equals("stopped") ? "" : lease(w.leaseLeftMillis())));
      }
    }
    return b.toString();
  }

  private static String lease(Long left) {
    if (left == null) {
      return "";
    }
    return left < 0
        ? String.format(Locale.ROOT, ", lease lost %d s ago", -left / 1000)
        : String.format(Locale.ROOT, ", lease %d s left", left / 1000);
  }
}
