package io.tunelab.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class DidYouMeanTest {
  @Test
  void suggestsWithinTwoEdits() {
    assertEquals("; did you mean 'order'?", DidYouMean.hint("ordr", List.of("name", "order")));
    assertEquals("; did you mean 'repeat'?", DidYouMean.hint("repaet", List.of("repeat")));
    assertEquals("", DidYouMean.hint("completely", List.of("repeat", "order")));
  }

  @Test
  void prefersTheClosestThenTheFirstWritten() {
    assertEquals("ab", DidYouMean.closest("abc", List.of("a", "ab", "abcd")));
    assertEquals("abd", DidYouMean.closest("abc", List.of("abd", "abe")));
  }

  @Test
  void distanceIsLevenshtein() {
    assertEquals(3, DidYouMean.distance("kitten", "sitting"));
    assertEquals(0, DidYouMean.distance("", ""));
    assertEquals(2, DidYouMean.distance("", "ab"));
  }
}
