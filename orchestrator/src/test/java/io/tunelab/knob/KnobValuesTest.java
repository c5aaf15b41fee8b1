package io.tunelab.knob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.knob.KnobValues.Agreement;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KnobValuesTest {
  static final Knob SCHED = KnobCatalogue.parse("block.loop3.scheduler");
  static final Knob RA = KnobCatalogue.parse("block.loop3.read_ahead_kb");
  static final Knob MS = KnobCatalogue.parse("block.loop3.max_sectors_kb");
  static final Knob NR = KnobCatalogue.parse("block.loop3.nr_requests");
  static final Knob RMEM = KnobCatalogue.parse("net.ipv4.tcp_rmem");
  static final Knob DIRTY_BYTES = KnobCatalogue.parse("vm.dirty_bytes");
  static final Knob DIRTY_RATIO = KnobCatalogue.parse("vm.dirty_ratio");

  @Test
  void schedulerNormalizesToTheSelectedEntry() {
    assertEquals("none", KnobValues.normalize(SCHED, "[none] mq-deadline kyber bfq\n"));
    assertEquals("bfq", KnobValues.normalize(SCHED, "none mq-deadline kyber [bfq]"));
    assertEquals("none", KnobValues.normalize(SCHED, "none\n"));
    assertEquals("mq-deadline", KnobValues.normalize(SCHED, " mq-deadline "));
    assertEquals(
        List.of("none", "mq-deadline", "kyber", "bfq"),
        KnobValues.available(SCHED, "[none] mq-deadline kyber bfq"));
    assertEquals(List.of("none"), KnobValues.available(SCHED, "none"));
  }

  @Test
  void otherValuesAreTrimmedWithBlankRunsCollapsed() {
    assertEquals("4096 131072 6291456", KnobValues.normalize(RMEM, "4096\t131072  6291456\n"));
    assertEquals("128", KnobValues.normalize(RA, " 128\n"));
    assertEquals("", KnobValues.normalize(RA, null));
  }

  @Test
  void kernelValuesAreCanonical() {
    assertEquals("104857600", KnobValues.kernelValue(DIRTY_BYTES, "100M"));
    assertEquals("104857600", KnobValues.kernelValue(DIRTY_BYTES, "100MiB"));
    assertEquals("100000000", KnobValues.kernelValue(DIRTY_BYTES, "100MB"));
    assertEquals("1073741824", KnobValues.kernelValue(DIRTY_BYTES, "1g"));
    assertEquals("128", KnobValues.kernelValue(RA, "0128"));
    assertEquals("bfq", KnobValues.kernelValue(SCHED, "bfq"));
    assertEquals("4096 87380 6291456", KnobValues.kernelValue(RMEM, "4096 87380\t6291456"));
    assertThrows(IllegalArgumentException.class, () -> KnobValues.kernelValue(RA, "default"));
  }

  @Test
  void validatesValuesWithoutTheHost() {
    assertEquals(Optional.empty(), KnobValues.validate(RA, "default"));
    assertEquals(Optional.empty(), KnobValues.validate(RA, "2048"));
    assertEquals(Optional.empty(), KnobValues.validate(DIRTY_BYTES, "10M"));
    assertEquals(Optional.empty(), KnobValues.validate(DIRTY_RATIO, "0"));
    assertEquals(Optional.empty(), KnobValues.validate(RMEM, "4096 87380 6291456"));
    assertTrue(KnobValues.validate(RA, "2M").orElseThrow().contains("not a whole number"));
    assertTrue(KnobValues.validate(DIRTY_RATIO, "101").orElseThrow().contains("from 0 to 100"));
    assertTrue(KnobValues.validate(DIRTY_BYTES, "0").orElseThrow().contains("vm.dirty_ratio"));
    assertTrue(KnobValues.validate(SCHED, "mq deadline").isPresent());
    assertTrue(KnobValues.validate(RA, "").isPresent());
  }

  @Test
  void kernelRoundingIsNotADifference() {
    assertEquals(Agreement.SAME, KnobValues.agreement(RA, "512", "512\n"));
    assertEquals(Agreement.ROUNDED, KnobValues.agreement(RA, "1001", "1000"));
    assertEquals(Agreement.ROUNDED, KnobValues.agreement(MS, "66", "64"));
    assertEquals(Agreement.DIFFERENT, KnobValues.agreement(RA, "1001", "128"));
    assertEquals(Agreement.DIFFERENT, KnobValues.agreement(RA, "1000", "1004"));
    assertEquals(Agreement.DIFFERENT, KnobValues.agreement(RA, "128", "100"));
    assertEquals(Agreement.ROUNDED, KnobValues.agreement(RA, "1000", "960"));
    assertEquals(Agreement.ROUNDED, KnobValues.agreement(NR, "1", "4"));
    assertEquals(Agreement.SAME, KnobValues.agreement(DIRTY_BYTES, "100M", "104857600"));
    assertEquals(Agreement.SAME, KnobValues.agreement(SCHED, "bfq", "mq-deadline [bfq]"));
    assertEquals(Agreement.DIFFERENT, KnobValues.agreement(SCHED, "bfq", "[none] bfq"));
    assertTrue(KnobValues.matches(RMEM, "4096 87380 6291456", "4096\t87380\t6291456"));
    assertFalse(KnobValues.matches(RMEM, "4096 87380 6291456", "4096\t87380\t4194304"));
  }
}
