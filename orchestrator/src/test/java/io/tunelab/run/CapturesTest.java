package io.tunelab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CapturesTest {
  @Test
  void aScalarReadsTheLastLineAndAListEveryNonEmptyOne() {
    List<String> out = List.of("/sys/block/loop0", "", "  /sys/block/loop1/  ", "loop2");
    assertEquals(List.of("loop2"), Captures.lines(out, false));
    assertEquals(List.of(""), Captures.lines(List.of(), false));
    assertEquals(
        List.of("loop0", "loop1", "loop2"),
        Captures.lines(out, true).stream().map(Captures::basename).toList());
    assertEquals(List.of(), Captures.lines(List.of("", " "), true));
  }

  @Test
  void basenamesAreWhatFollowsTheLastSlash() {
    assertEquals("loop3", Captures.basename("/dev/loop3"));
    assertEquals("sdb", Captures.basename("/sys/block/sdb/"));
    assertEquals("tunelab.Ab12", Captures.basename(" /var/tmp/tunelab.Ab12\t"));
    assertEquals("", Captures.basename("/"));
  }

  @Test
  void onlySafeWordsMayBeCaptured() {
    for (String ok :
        List.of("loop3", "iqn.2024-01.lab:ssd", "dm-0", "a+b", "4", ".hidden", "x..")) {
      assertEquals(Optional.empty(), Captures.problem(ok), ok);
    }
    for (String bad : List.of("", "/", "a b", "$(rm)", "a;b", "*")) {
      assertTrue(Captures.problem(bad).orElseThrow().contains("letters, digits"), bad);
    }
    // these pass the character check but would change what a command does
    for (String bad : List.of(".", "..", "...")) {
      assertTrue(Captures.problem(bad).orElseThrow().contains("dots"), bad);
    }
    for (String bad : List.of("-rf", "--force", "-")) {
      assertTrue(Captures.problem(bad).orElseThrow().contains("option"), bad);
    }
  }
}
