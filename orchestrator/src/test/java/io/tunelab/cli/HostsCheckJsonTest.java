package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tunelab.testing.Cli;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code tunelab hosts check --format json} of the local host: the table's rows, for scripts. */
class HostsCheckJsonTest {

  @Test
  void theRowsOfTheTableAsJsonWithTheSameExitCode() throws Exception {
    Cli.Result table = Cli.tunelab("hosts", "check");
    Cli.Result json = Cli.tunelab("hosts", "check", "--format", "json");

    JsonNode rows = new ObjectMapper().readTree(json.out());
    assertTrue(rows.isArray() && rows.size() > 0, json.all());
    List<String> checks = new ArrayList<>();
    boolean allOk = true;
    for (JsonNode row : rows) {
      assertEquals("local", row.get("host").asText(), row.toString());
      assertTrue(row.get("ok").isBoolean(), row.toString());
      assertTrue(row.get("detail").isTextual(), row.toString());
      checks.add(row.get("check").asText());
      allOk &= row.get("ok").asBoolean();
      assertTrue(
          table
              .out()
              .lines()
              .anyMatch(l -> l.matches("local\\s+" + row.get("check").asText() + "\\s.*")),
          "the table has the row " + row + ":\n" + table.out());
    }
    assertFalse(checks.contains(""), checks.toString());
    assertEquals(allOk ? 0 : 3, json.code(), json.all());
    assertEquals(table.code(), json.code(), table.all() + json.all());
  }

  @Test
  void anUnknownFormatIsBadUsageBeforeAnyConnection() {
    Cli.Result r = Cli.tunelab("hosts", "check", "--format", "xml");
    assertEquals(2, r.code(), r.all());
    assertTrue(r.err().contains("unknown format xml (expected table or json)"), r.all());
  }
}
