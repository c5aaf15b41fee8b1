package io.tunelab.view;

import io.tunelab.report.TableFormat;
import io.tunelab.store.ExperimentQueue.Entry;
import io.tunelab.store.ExperimentQueue.Worker;
import io.tunelab.store.ResultTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The queue and the workers of a shared database, as {@code tunelab status} prints them. */
public final class QueueText {
  private QueueText() {}

  public static String render(List<Entry> entries, List<Worker> workers) {
    StringBuilder b = new StringBuilder();
    if (!entries.isEmpty()) {
      b.append("\nqueue:\n");
      for (Entry e : entries) {
        b.append(
            String.format(
                Locale.ROOT,
                "  %d %s  queue %s  %s (%s)%s%s%s%n",
                e.experimentId(),
                e.name(),
                e.queue(),
                e.state(),
                e.status(),
                e.testbed() == null ? "" : "  testbed " + e.testbed(),
                e.state().equals("claimed") ? "  " + e.worker() + lease(e.leaseLeftMillis()) : "",
                e.reason() == null || e.state().equals("done") ? "" : "  (" + e.reason() + ")"));
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

  /** {@code queue list}: one row per experiment, with its claims, refusals and reason. */
  public static String table(List<Entry> entries) {
    List<String> columns =
        List.of(
            "id",
            "name",
            "queue",
            "state",
            "status",
            "testbed",
            "worker",
            "lease_left_s",
            "claims",
            "refusals",
            "reason");
    List<List<Object>> rows = new ArrayList<>();
    for (Entry e : entries) {
      rows.add(
          Arrays.asList(
              e.experimentId(),
              e.name(),
              e.queue(),
              e.state(),
              e.status(),
              e.testbed(),
              e.worker(),
              e.leaseLeftMillis() == null || !e.state().equals("claimed")
                  ? null
                  : e.leaseLeftMillis() / 1000,
              e.claims(),
              e.refusals(),
              e.reason()));
    }
    return TableFormat.render(new ResultTable(columns, rows), "table");
  }

  /** {@code queue list --format json}: the same rows, as objects of those keys. */
  public static String json(List<Entry> entries) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Entry e : entries) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", e.experimentId());
      m.put("name", e.name());
      m.put("queue", e.queue());
      m.put("state", e.state());
      m.put("status", e.status());
      m.put("testbed", e.testbed());
      m.put("worker", e.worker());
      m.put(
          "lease_left_s",
          e.leaseLeftMillis() == null || !e.state().equals("claimed")
              ? null
              : e.leaseLeftMillis() / 1000);
      m.put("claims", e.claims());
      m.put("refusals", e.refusals());
      m.put("reason", e.reason());
      rows.add(m);
    }
    return PrettyJson.write(Map.of("queue", rows));
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
