package io.tunelab.knob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.GoldenFiles;
import java.util.List;
import org.junit.jupiter.api.Test;

class KnobCatalogueTest {

  static final List<String> GOOD =
      List.of(
          "vm.dirty_ratio",
          "vm.dirty_background_bytes",
          "kernel.sched_migration_cost_ns",
          "net.ipv4.tcp_rmem",
          "net.core.rmem_max",
          "fs.aio-max-nr",
          "dev.raid.speed_limit_min",
          "sunrpc.tcp_slot_table_entries",
          "block.loop3.scheduler",
          "block.sdb.read_ahead_kb",
          "block.nvme0n1.max_sectors_kb",
          "block.dm-0.nr_requests",
          "block.sdb.rotational",
          "block.sdb.nomerges",
          "block.sdb.rq_affinity",
          "block.sdb.wbt_lat_usec",
          "block.sdb.write_cache",
          "block.loop3.iosched.fifo_batch",
          "block.sdb.iosched.slice_idle",
          "bdi.8:16.max_ratio",
          "bdi.0:52.read_ahead_kb",
          "bdi.8:16.strict_limit",
          "nfsd.threads",
          "sysfs:/sys/module/nfsd/parameters/nfs4_disable_idmapping",
          "sysfs:/sys/block/sdb/queue/io_poll_delay",
          "sysfs:/sys/kernel/mm/transparent_hugepage/enabled",
          "proc:/proc/fs/nfsd/max_block_size",
          "proc:/proc/sys/net/ipv4/conf/eth0.100/rp_filter");

  static final List<String> BAD =
      List.of(
          "",
          "vn.dirty_ratio",
          "blk.sdb.scheduler",
          "blcok.sdb.scheduler",
          "sysctl.vm.dirty_ratio",
          "vm",
          "vm.dirty..ratio",
          "vm.dirty_ratio.",
          "vm.dirty ratio",
          "block.sdb",
          "block.sdb.read_ahead",
          "block.sdb.shceduler",
          "block.sdb.max_sector_kb",
          "block.sdb.max_hw_sectors_kb",
          "block.sdb.queue.read_ahead_kb",
          "block.sdb.iosched",
          "block.sdb.iosched.fifo.batch",
          "block..scheduler",
          "block.${dev}.scheduler",
          "block.sd/b.scheduler",
          "bdi.8:16.max_ration",
          "bdi.8:16",
          "nfsd.thread",
          "nfsd.versions",
          "sysfs:sys/block/sdb/queue/x",
          "sysfs:/proc/sys/vm/dirty_ratio",
          "sysfs:/sys/block/../../etc/passwd",
          "sysfs:/sys/block//sdb",
          "sysfs:/sys/block/sdb/",
          "sysfs:/sys/",
          "sysfs:/sys/kernel/mm/a b",
          "sysfs:/sys/kernel/mm/x$y",
          "sysfs:/sys/block/sdb/queue/scheduler",
          "sysfs:/sys/block/sdb/queue/iosched/fifo_batch",
          "sysfs:/sys/class/bdi/8:16/max_ratio",
          "proc:/proc/sys/vm/dirty_ratio",
          "proc:/proc/fs/nfsd/threads",
          "proc:/sys/kernel",
          "proc:/proc/1/root/etc/passwd",
          "proc:/proc/self/environ",
          "proc:/proc/thread-self/attr/current",
          "proc:/proc/meminfo",
          "sys:/sys/kernel/x",
          "/sys/block/sdb/queue/scheduler",
          "/proc/sys/vm/swappiness");

  @Test
  void mapsNamesToFilesAndKinds() {
    StringBuilder out = new StringBuilder();
    for (String name : GOOD) {
      Knob k = KnobCatalogue.parse(name);
      assertEquals(name, k.name());
      out.append(String.format("%-58s %-16s %-8s %s%n", name, k.kind(), k.device(), k.path()));
    }
    GoldenFiles.assertMatches("knob/catalogue.txt", out.toString());
  }

  @Test
  void explainsBadNamesInOneLine() {
    StringBuilder out = new StringBuilder();
    for (String name : BAD) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> KnobCatalogue.parse(name), name);
      assertTrue(!e.getMessage().contains("\n"), e.getMessage());
      out.append(name).append("\n  ").append(e.getMessage()).append('\n');
    }
    GoldenFiles.assertMatches("knob/catalogue-errors.txt", out.toString());
  }

  @Test
  void suggestsTheMeantFamilyAndAttribute() {
    assertTrue(message("vn.dirty_ratio").contains("did you mean 'vm'?"));
    assertTrue(message("blk.sdb.scheduler").contains("did you mean 'block'?"));
    assertTrue(message("block.sdb.read_ahead").contains("did you mean 'read_ahead_kb'?"));
    assertTrue(message("block.sdb.shceduler").contains("did you mean 'scheduler'?"));
    assertTrue(message("bdi.8:16.max_ration").contains("did you mean 'max_ratio'?"));
    assertTrue(message("vm.dirty_ration").contains("did you mean 'vm.dirty_ratio'?"));
    assertTrue(message("vm.swapiness").contains("did you mean 'vm.swappiness'?"));
    assertTrue(message("vm.dirty_bytess").contains("did you mean 'vm.dirty_bytes'?"));
  }

  @Test
  void everyCatalogueFileHasExactlyOneName() {
    for (String name : GOOD) {
      Knob k = KnobCatalogue.parse(name);
      if (k.kind() == Knob.Kind.SYSFS || k.kind() == Knob.Kind.PROC) {
        continue;
      }
      assertEquals(name, KnobCatalogue.catalogueNameFor(k.path()).orElseThrow(), name);
      String prefix = k.path().startsWith("/proc/") ? "proc:" : "sysfs:";
      assertThrows(IllegalArgumentException.class, () -> KnobCatalogue.parse(prefix + k.path()));
    }
  }

  @Test
  void relatedPathsNameWhatPreflightMustRead() {
    assertEquals(
        List.of("/sys/block/sdb/queue/max_hw_sectors_kb", "/sys/block/sdb/dev"),
        KnobCatalogue.relatedPaths(KnobCatalogue.parse("block.sdb.max_sectors_kb")));
    assertEquals(
        List.of("/sys/block/sdb/dev"),
        KnobCatalogue.relatedPaths(KnobCatalogue.parse("block.sdb.scheduler")));
    assertEquals(
        List.of("/sys/block/sdb/queue/scheduler", "/sys/block/sdb/dev"),
        KnobCatalogue.relatedPaths(KnobCatalogue.parse("block.sdb.iosched.fifo_batch")));
    assertEquals(
        List.of("/proc/sys/vm/dirty_ratio"),
        KnobCatalogue.relatedPaths(KnobCatalogue.parse("vm.dirty_bytes")));
    assertEquals(
        List.of("/proc/sys/vm/dirty_background_bytes"),
        KnobCatalogue.relatedPaths(KnobCatalogue.parse("vm.dirty_background_ratio")));
    assertEquals(List.of(), KnobCatalogue.relatedPaths(KnobCatalogue.parse("vm.swappiness")));
    assertEquals(
        List.of("/sys/class/bdi/8:16/read_ahead_kb"),
        KnobCatalogue.relatedPaths(KnobCatalogue.parse("bdi.8:16.max_ratio")));
  }

  @Test
  void spellingDistanceCountsTranspositionsOnce() {
    assertEquals(1, Spelling.distance("shceduler", "scheduler"));
    assertEquals(2, Spelling.distance("blk", "block"));
    assertEquals(0, Spelling.distance("vm", "vm"));
    assertTrue(Spelling.closest("foo", KnobCatalogue.FAMILIES).isEmpty());
  }

  private static String message(String name) {
    return assertThrows(IllegalArgumentException.class, () -> KnobCatalogue.parse(name))
        .getMessage();
  }

  @Test
  void aVmSysctlNoKernelListsButNoTypoOfOnePassesToTheHostCheck() {
    for (String name : List.of("vm.my_patched_knob", "vm.dirty_throttle_usec", "vm.swappiness")) {
      assertEquals("/proc/sys/" + name.replace('.', '/'), KnobCatalogue.parse(name).path());
    }
  }

  @Test
  void aConfAllSysctlIsRefusedWithThePerInterfaceName() {
    for (String name :
        List.of(
            "net.ipv4.conf.all.forwarding",
            "net.ipv6.conf.all.disable_ipv6",
            "proc:/proc/sys/net/ipv4/conf/all/rp_filter")) {
      String m = message(name);
      assertTrue(m.startsWith("knob '" + name + "': conf.all is copied into every interface"), m);
      assertTrue(m.contains(".conf.IFACE."), m);
    }
    assertTrue(message("net.ipv6.conf.all.forwarding").contains("net.ipv6.conf.IFACE.forwarding"));
    for (String name :
        List.of("net.ipv4.conf.eth0.forwarding", "net.ipv4.conf.default.rp_filter")) {
      assertEquals("/proc/sys/" + name.replace('.', '/'), KnobCatalogue.parse(name).path(), name);
    }
  }
}
