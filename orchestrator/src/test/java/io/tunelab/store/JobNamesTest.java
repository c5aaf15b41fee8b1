package io.tunelab.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How messages list an experiment's jobs and guess what a mistyped one meant. */
class JobNamesTest {
  @Test
  void processesInNumericOrderAndLongRunsShortened() {
    List<String> jobs = new ArrayList<>(List.of("all", "reader", "reader.0", "vmstat@client"));
    for (int i = 0; i < 112; i++) {
      jobs.add("writer." + i);
      jobs.add("iostat@server:sd" + (char) ('a' + i % 26) + (i / 26));
    }
    jobs.add("writer");

    assertEquals(
        "all, iostat@server:sda0 … iostat@server:sdz3 (112), reader, reader.0, vmstat@client,"
            + " writer, writer.0 … writer.111 (112)",
        JobNames.listed(jobs));
    assertEquals(
        "all, dd, dd.0, dd.1, dd.2, dd.10",
        JobNames.listed(List.of("dd.10", "dd.2", "all", "dd.0", "dd", "dd.1")));
  }

  @Test
  void aMonitorWithoutItsRoleOrDeviceAndAMisspeltJobAreGuessed() {
    List<String> jobs = List.of("all", "iostat@server:sdb", "vmstat@client", "writer", "writer.0");

    assertEquals("; did you mean 'vmstat@client'?", JobNames.hint("vmstat", jobs));
    assertEquals("; did you mean 'iostat@server:sdb'?", JobNames.hint("iostat@server", jobs));
    assertEquals("; did you mean 'writer'?", JobNames.hint("wirter", jobs));
    assertEquals("; did you mean 'writer.0'?", JobNames.hint("writer.7", jobs));
    assertEquals("", JobNames.hint("copier", jobs));
  }
}
