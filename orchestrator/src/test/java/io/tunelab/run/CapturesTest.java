package io.tunelab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.TunelabException;
import io.tunelab.matrix.Step;
import io.tunelab.yaml.Position;
import java.util.List;
import java.util.Map;
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

  @Test
  void aCaptureReadBackIsCheckedByTheRuleItWasCapturedWith() {
    Position at = new Position("m.yaml", 3, 5);
    List<Step> steps =
        List.of(
            new Step(null, "losetup -f --show x", "loop", false, at),
            new Step(null, "ls /sys/block", "disks", true, at));

    Captures.recheck("t.db", steps, Map.of("loop", "loop7", "disks", "sda\nsdb"));
    Captures.recheck("t.db", steps, Map.of("disks", ""));

    for (Map<String, String> planted :
        List.of(
            Map.of("loop", "loop7\nreboot"),
            Map.of("disks", "sda\n-rf"),
            Map.of("loop", ""),
            Map.of("other", "x"))) {
      TunelabException e =
          assertThrows(TunelabException.class, () -> Captures.recheck("t.db", steps, planted));
      assertEquals(TunelabException.HOST_REFUSED, e.exitCode(), e.getMessage());
      assertTrue(e.getMessage().startsWith("t.db: the stored capture ${"), e.getMessage());
    }
  }
}
