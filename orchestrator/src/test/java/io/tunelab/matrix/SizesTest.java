package io.tunelab.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SizesTest {
  @ParameterizedTest
  @CsvSource({
    "4096, 4096",
    "64K, 65536",
    "64k, 65536",
    "64KiB, 65536",
    "64M, 67108864",
    "256MiB, 268435456",
    "1G, 1073741824",
    "1GiB, 1073741824",
    "2T, 2199023255552",
    "0, 0"
  })
  void parsesBinarySizes(String text, long bytes) {
    assertEquals(bytes, Sizes.parseBytes(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "M", "1MB", "1kB", "1.5M", "-1", "1 M", "1m", "64Q", "0x10"})
  void refusesAnythingElse(String text) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Sizes.parseBytes(text));
    assertEquals(
        "'"
            + text
            + "' is not a size: write a whole number of bytes, optionally followed by"
            + " K, M, G, T or KiB, MiB, GiB, TiB (binary multiples)",
        e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"99999999999999999999", "9000000T"})
  void refusesOverflow(String text) {
    assertThrows(IllegalArgumentException.class, () -> Sizes.parseBytes(text));
  }
}
