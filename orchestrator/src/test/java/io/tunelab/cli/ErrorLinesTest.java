package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Error lines as editors read them: located ones start with FILE:LINE:COL, others tunelab:. */
class ErrorLinesTest {
  @TempDir Path dir;

  @Test
  void everyLocatedLineStartsWithItsLocation() throws IOException {
    Path m = dir.resolve("two-errors.yaml");
    Files.writeString(
        m,
        "name: two-errors\n"
            + "settings:\n"
            + "  local.vm.dirty_ratio: 150\n"
            + "  local.block.sda.read_ahead_kb: lots\n"
            + "workload:\n"
            + "  command: \"true\"\n");
    Cli.Result r = Cli.tunelab("plan", m.toString());

    assertEquals(2, r.code(), r.all());
    List<String> lines = r.err().lines().toList();
    assertEquals(2, lines.size(), r.err());
    assertTrue(lines.get(0).startsWith(m + ":3:"), r.err());
    assertTrue(lines.get(1).startsWith(m + ":4:"), r.err());
  }

  @Test
  void anUnlocatedErrorStartsWithTheProgramsName() {
    Cli.Result r = Cli.tunelab("plan", dir.resolve("absent.yaml").toString());

    assertEquals(2, r.code(), r.all());
    assertTrue(r.err().startsWith("tunelab: "), r.err());
  }

  @Test
  void onlyAFileLineColumnPrefixCountsAsALocation() {
    assertEquals("m.yaml:3:25: x", Main.prefixed("m.yaml:3:25: x"));
    assertEquals("/a b/m.yaml:3:1: x", Main.prefixed("/a b/m.yaml:3:1: x"));
    assertEquals("tunelab: host srv1:22: refused", Main.prefixed("host srv1:22: refused"));
    assertEquals("tunelab: cannot read m.yaml", Main.prefixed("cannot read m.yaml"));
  }
}
