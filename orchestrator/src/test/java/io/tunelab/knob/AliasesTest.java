package io.tunelab.knob;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Two names for one setting, on one host and on two hosts of one kernel, judged from reads. */
class AliasesTest {
  private static final ReadResult RW = new ReadResult(ReadResult.State.RW, "2560");
  private static final String LOOP3 = "/sys/devices/virtual/block/loop3/queue/read_ahead_kb";

  private static Map<String, ReadResult> reads(Object... pathsAndReads) {
    Map<String, ReadResult> reads = new LinkedHashMap<>();
    for (int i = 0; i < pathsAndReads.length; i += 2) {
      reads.put((String) pathsAndReads[i], (ReadResult) pathsAndReads[i + 1]);
    }
    return reads;
  }

  @Test
  void aSysfsPathThatLeadsToACatalogueKnobsFileIsRefusedNamingBothAndTheFile() {
    Knob block = KnobCatalogue.parse("block.loop3.read_ahead_kb");
    Knob raw = KnobCatalogue.parse("sysfs:" + LOOP3);

    List<String> problems =
        Aliases.within(
            List.of(block, raw),
            reads(block.path(), RW.at(LOOP3), raw.path(), RW, "/sys/block/loop3/dev", null));

    assertEquals(
        List.of(
            "block.loop3.read_ahead_kb and sysfs:"
                + LOOP3
                + " are one file, "
                + LOOP3
                + ": name it once"),
        problems);
  }

  @Test
  void aBdisReadAheadIsItsBlockDevicesReadAhead() {
    Knob block = KnobCatalogue.parse("block.loop3.read_ahead_kb");
    Knob bdi = KnobCatalogue.parse("bdi.7:3.read_ahead_kb");
    ReadResult dev = new ReadResult(ReadResult.State.RO, "7:3");

    List<String> problems =
        Aliases.within(
            List.of(block, bdi),
            reads(
                block.path(),
                RW.at(LOOP3),
                "/sys/block/loop3/dev",
                dev,
                bdi.path(),
                RW.at("/sys/devices/virtual/bdi/7:3/read_ahead_kb")));

    assertEquals(
        List.of(
            "block.loop3.read_ahead_kb and bdi.7:3.read_ahead_kb are one setting, the read-ahead"
                + " of device 7:3 (/sys/class/bdi/7:3/read_ahead_kb): name it once"),
        problems);
    Knob other = KnobCatalogue.parse("bdi.7:4.read_ahead_kb");
    assertEquals(
        List.of(),
        Aliases.within(
            List.of(block, other),
            reads(block.path(), RW.at(LOOP3), "/sys/block/loop3/dev", dev, other.path(), RW)));
  }

  @Test
  void distinctFilesAndMissingOnesAreNoAliases() {
    Knob a = KnobCatalogue.parse("vm.dirty_ratio");
    Knob b = KnobCatalogue.parse("vm.dirty_bytes");
    Knob gone = KnobCatalogue.parse("sysfs:/sys/kernel/mm/nothing");
    assertEquals(List.of(), Aliases.within(List.of(a, b, gone), reads(a.path(), RW, b.path(), RW)));
  }

  @Test
  void hostsOfOneKernelMayNotBothNameOneSetting() {
    ReadResult boot = new ReadResult(ReadResult.State.RO, "1f864550-aa56");
    ReadResult otherBoot = new ReadResult(ReadResult.State.RO, "0badb007");
    Knob swappiness = KnobCatalogue.parse("vm.swappiness");
    Knob bytes = KnobCatalogue.parse("vm.dirty_bytes");
    Knob ratio = KnobCatalogue.parse("vm.dirty_ratio");
    Knob rmem = KnobCatalogue.parse("net.ipv4.tcp_rmem");
    Knob sched = KnobCatalogue.parse("block.loop3.scheduler");
    Knob ra = KnobCatalogue.parse("block.loop3.read_ahead_kb");
    Map<String, List<Knob>> knobs = new LinkedHashMap<>();
    knobs.put("server", List.of(swappiness, bytes, rmem, sched));
    knobs.put("client", List.of(swappiness, ratio, rmem, ra));
    knobs.put("far", List.of(swappiness));
    Map<String, ReadResult> server =
        reads(
            Aliases.BOOT_ID,
            boot,
            swappiness.path(),
            RW,
            bytes.path(),
            RW,
            rmem.path(),
            RW,
            sched.path(),
            RW.at("/sys/devices/virtual/block/loop3/queue/scheduler"));
    Map<String, ReadResult> client =
        reads(
            Aliases.BOOT_ID,
            boot,
            swappiness.path(),
            RW,
            ratio.path(),
            RW,
            rmem.path(),
            RW,
            ra.path(),
            RW.at(LOOP3));
    Map<String, ReadResult> far = reads(Aliases.BOOT_ID, otherBoot, swappiness.path(), RW);

    List<String> problems =
        Aliases.across(knobs, Map.of("server", server, "client", client, "far", far));

    String one = "host client: hosts server and client are one kernel (boot id 1f864550-aa56): ";
    assertEquals(
        List.of(
            one
                + "server's vm.swappiness and client's vm.swappiness are one file,"
                + " /proc/sys/vm/swappiness: set it on one of them only",
            one
                + "server's vm.dirty_bytes and client's vm.dirty_ratio are the exclusive pair"
                + " vm.dirty_bytes/vm.dirty_ratio, where writing one zeroes the other: set it on"
                + " one of them only",
            one
                + "server's block.loop3.scheduler and client's block.loop3.read_ahead_kb are files"
                + " of one device's queue, /sys/devices/virtual/block/loop3/queue, where one write"
                + " can change another: set it on one of them only"),
        problems);
  }
}
