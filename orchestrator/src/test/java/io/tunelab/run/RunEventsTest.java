package io.tunelab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.store.Fixtures;
import io.tunelab.store.ResultStore;
import io.tunelab.store.sqlite.JdbcResultStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run keeps its own events, whatever listener watches it, and passes every call on. */
class RunEventsTest {
  @TempDir Path dir;

  /** A listener that writes down what it heard. */
  private static final class Heard implements RunListener {
    final List<String> calls = new ArrayList<>();

    @Override
    public void runStarted(long experimentId, int trials) {
      calls.add("started " + trials);
    }

    @Override
    public void hostEvent(String host, String message) {
      calls.add("host " + host + " " + message);
    }

    @Override
    public void runEvent(String message) {
      calls.add("run " + message);
    }

    @Override
    public void warning(String message) {
      calls.add("warning " + message);
    }
  }

  private static List<List<String>> events(ResultStore store) {
    return store
        .query("SELECT kind, coalesce(host, ''), message FROM events ORDER BY id")
        .rows()
        .stream()
        .map(r -> r.stream().map(String::valueOf).toList())
        .toList();
  }

  @Test
  void startHostRunMessageAndErrorEventsAreStoredByTheRun() {
    try (ResultStore store = JdbcResultStore.open(dir.resolve("t.db"), Fixtures.CLOCK)) {
      long id =
          store.createExperiment(
              Fixtures.experiment("e", 1, 0, List.of(Fixtures.cell(1, "bs", "1M"))),
              Fixtures.TOOL_VERSION);
      Heard heard = new Heard();
      List<String> printed = new ArrayList<>();
      RunEvents events = new RunEvents(store, heard, Duration.ofHours(2));
      Consumer<String> out = events.lines(printed::add);

      out.accept("before the trials: printed, not kept");
      events.runStarted(id, 1);
      events.hostEvent("db1", "restored 1 setting(s)");
      events.runEvent("max time reached");
      out.accept("warning: teardown: x");
      events.error("disk full");

      assertEquals(
          List.of(
              List.of(
                  "start",
                  "",
                  "run started: 1 trial(s) to run, controller pid "
                      + ProcessHandle.current().pid()
                      + ", --max-time 2h"),
              List.of("host", "db1", "restored 1 setting(s)"),
              List.of("run", "", "max time reached"),
              List.of("message", "", "warning: teardown: x"),
              List.of("error", "", "disk full")),
          events(store));
      assertEquals(
          List.of("started 1", "host db1 restored 1 setting(s)", "run max time reached"),
          heard.calls);
      assertEquals(
          List.of("before the trials: printed, not kept", "warning: teardown: x"), printed);
    }
  }

  @Test
  void anEventTheStoreRefusesIsAWarningNotAFailure() {
    try (ResultStore store = JdbcResultStore.open(dir.resolve("t.db"), Fixtures.CLOCK)) {
      Heard heard = new Heard();
      RunEvents events = new RunEvents(store, heard, null);

      events.runStarted(999, 3); // no such experiment: the foreign key refuses its events

      assertEquals(List.of(), events(store));
      assertEquals("started 3", heard.calls.get(1));
      assertEquals(
          true, heard.calls.get(0).startsWith("warning event not stored"), heard.calls.toString());
    }
  }
}
