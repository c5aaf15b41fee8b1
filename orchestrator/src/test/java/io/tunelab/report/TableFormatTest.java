package io.tunelab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tunelab.TunelabException;
import io.tunelab.store.ResultTable;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableFormatTest {
  private static final ResultTable TABLE =
      new ResultTable(
          List.of("label", "n", "mean", "note"),
          List.of(
              Arrays.asList("case=default/bs=64M", 3L, 62.668045141476874, "fast, \"cached\""),
              Arrays.asList("bs=1M", 12L, 0.000123456, null),
              Arrays.asList("x", null, 1500.0, "two\nlines")));

  @Test
  void tableAlignsNumbersRightAndTrimsDecimals() {
    assertEquals(
        String.join(
            "\n",
            "label                 n      mean  note",
            "-------------------  --  --------  --------------",
            "case=default/bs=64M   3    62.668  fast, \"cached\"",
            "bs=1M                12  0.000123",
            "x                            1500  two\\nlines",
            ""),
        TableFormat.TABLE.render(TABLE));
  }

  @Test
  void csvQuotesAsRfc4180AndKeepsFullPrecision() {
    assertEquals(
        String.join(
            "\n",
            "label,n,mean,note",
            "case=default/bs=64M,3,62.668045141476874,\"fast, \"\"cached\"\"\"",
            "bs=1M,12,0.000123456,",
            "x,,1500,\"two\nlines\"",
            ""),
        TableFormat.CSV.render(TABLE));
  }

  @Test
  void jsonIsAnArrayOfObjectsOnePerLine() {
    assertEquals(
        String.join(
            "\n",
            "[",
            "  {\"label\":\"case=default/bs=64M\",\"n\":3,\"mean\":62.668045141476874,"
                + "\"note\":\"fast, \\\"cached\\\"\"},",
            "  {\"label\":\"bs=1M\",\"n\":12,\"mean\":1.23456E-4,\"note\":null},",
            "  {\"label\":\"x\",\"n\":null,\"mean\":1500.0,\"note\":\"two\\nlines\"}",
            "]",
            ""),
        TableFormat.JSON.render(TABLE));
  }

  @Test
  void jsonKeysStayUniqueAndEmptyResultsAreEmptyArrays() {
    ResultTable twoIds = new ResultTable(List.of("id", "id"), List.of(List.of(1L, 2L)));

    assertEquals("[\n  {\"id\":1,\"id_2\":2}\n]\n", TableFormat.JSON.render(twoIds));
    assertEquals("[]\n", TableFormat.JSON.render(new ResultTable(List.of("id"), List.of())));
    assertEquals("id\n", TableFormat.CSV.render(new ResultTable(List.of("id"), List.of())));
  }

  @Test
  void humanNumbers() {
    assertEquals("62.668", TableFormat.humanNumber(62.668045));
    assertEquals("1.5", TableFormat.humanNumber(1.5));
    assertEquals("64", TableFormat.humanNumber(64.0));
    assertEquals("0.979", TableFormat.humanNumber(0.9791882));
    assertEquals("0.000123", TableFormat.humanNumber(0.000123456));
    assertEquals("-2.25", TableFormat.humanNumber(-2.25));
    assertEquals("1073741824", TableFormat.humanNumber(1073741824.0));
    assertEquals("0", TableFormat.humanNumber(-0.0));
    assertEquals("NaN", TableFormat.humanNumber(Double.NaN));
  }

  @Test
  void renderByName() {
    assertEquals(TableFormat.CSV.render(TABLE), TableFormat.render(TABLE, "csv"));
    assertThrows(TunelabException.class, () -> TableFormat.render(TABLE, "yaml"));
  }

  @Test
  void formatsAreNamedCaseInsensitively() {
    assertEquals(TableFormat.CSV, TableFormat.named("CSV"));
    TunelabException e = assertThrows(TunelabException.class, () -> TableFormat.named("xml"));
    assertEquals(TunelabException.BAD_INPUT, e.exitCode());
    assertEquals("unknown format xml (expected table, csv or json)", e.getMessage());
  }
}
