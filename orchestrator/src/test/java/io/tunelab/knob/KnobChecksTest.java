package io.tunelab.knob;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.testing.GoldenFiles;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KnobChecksTest {

  @Test
  void preflightMessages() {
    FakeKernel host = new FakeKernel("none");
    StringBuilder out = new StringBuilder();
    String[][] cases = {
      {"block.loop3.scheduler", "mq-deadline"},
      {"block.loop3.scheduler", "cfq"},
      {"block.loop3.scheduler", "deadline"},
      {"block.loop3.scheduler", "default"},
      {"block.loop9.scheduler", "none"},
      {"block.loop9.read_ahead_kb", "default"},
      {"block.loop3.read_ahead_kb", "2048"},
      {"block.loop3.read_ahead_kb", "-1"},
      {"block.loop3.read_ahead_kb", "2M"},
      {"block.loop3.max_sectors_kb", "64"},
      {"block.loop3.max_sectors_kb", "4096"},
      {"block.loop3.nr_requests", "64"},
      {"block.loop3.rotational", "2"},
      {"block.loop3.nomerges", "2"},
      {"block.loop3.wbt_lat_usec", "-1"},
      {"block.loop3.add_random", "1"},
      {"block.loop3.iosched.fifo_batch", "16"},
      {"vm.dirty_ratio", "101"},
      {"vm.dirty_ratio", "40"},
      {"vm.dirty_bytes", "0"},
      {"vm.dirty_bytes", "100M"},
      {"vm.dirty_bytes", "10X"},
      {"vm.dirty_expire_centisecs", "1.5"},
      {"vm.swappiness", "10"},
      {"nfsd.threads", "8"},
      {"bdi.7:3.max_ratio", "50"},
      {"sysfs:/sys/module/loop/parameters/max_part", "8"},
    };
    for (String[] c : cases) {
      Knob k = KnobCatalogue.parse(c[0]);
      Map<String, ReadResult> related = host.readAll(KnobCatalogue.relatedPaths(k));
      Optional<String> problem = KnobChecks.check(k, c[1], host.readResult(k.path()), related);
      out.append(c[0]).append(" = ").append(c[1]).append("\n  ");
      out.append(problem.orElse("ok")).append('\n');
    }
    GoldenFiles.assertMatches("knob/preflight.txt", out.toString());
  }

  @Test
  void readOnlyFilesAreRefusedWhateverTheValue() {
    Knob k = KnobCatalogue.parse("block.sdb.rotational");
    assertEquals(
        Optional.of(
            "block.sdb.rotational: /sys/block/sdb/queue/rotational is read-only for the agent's"
                + " user"),
        KnobChecks.check(k, "default", new ReadResult(ReadResult.State.RO, "1"), Map.of()));
  }

  @Test
  void ioschedFilesOfAnotherSchedulerWaitForTheTrialThatSelectsIt() {
    FakeKernel host = new FakeKernel("none");
    Knob sched = KnobCatalogue.parse("block.loop3.scheduler");
    Knob fifo = KnobCatalogue.parse("block.loop3.iosched.fifo_batch");
    Map<Knob, List<String>> switching = new LinkedHashMap<>();
    switching.put(sched, List.of("none", "mq-deadline"));
    switching.put(fifo, List.of("default", "8"));
    Map<String, ReadResult> reads = host.readAll(KnobChecks.pathsToRead(switching.keySet()));
    assertEquals(List.of(), KnobChecks.checkAll(switching, reads));

    Map<Knob, List<String>> staying = new LinkedHashMap<>();
    staying.put(sched, List.of("none", "default"));
    staying.put(fifo, List.of("8"));
    assertEquals(
        List.of(
            "block.loop3.iosched.fifo_batch: /sys/block/loop3/queue/iosched/fifo_batch does not"
                + " exist: the active scheduler 'none' of loop3 has no 'fifo_batch'"),
        KnobChecks.checkAll(staying, host.readAll(KnobChecks.pathsToRead(staying.keySet()))));
  }

  @Test
  void checkAllReportsEachProblemOnce() {
    FakeKernel host = new FakeKernel("none");
    Map<Knob, List<String>> values = new LinkedHashMap<>();
    values.put(KnobCatalogue.parse("block.loop9.read_ahead_kb"), List.of("default", "512"));
    values.put(KnobCatalogue.parse("block.loop3.scheduler"), List.of("none", "cfq", "bfq"));
    Map<String, ReadResult> reads = host.readAll(KnobChecks.pathsToRead(values.keySet()));
    assertEquals(
        List.of(
            "block.loop9.read_ahead_kb: no block device 'loop9' (see /sys/block)",
            "block.loop3.scheduler: scheduler 'cfq' is not offered by loop3 (available: none"
                + " mq-deadline kyber bfq; did you mean 'bfq'?)"),
        KnobChecks.checkAll(values, reads));
  }

  @Test
  void aMissingSysctlNamesTheHostsNearestFromItsOwnListing() {
    Knob leaf = KnobCatalogue.parse("net.core.somaxconm");
    Knob dir = KnobCatalogue.parse("net.cor.somaxconn");
    Knob unlike = KnobCatalogue.parse("net.core.zzzzzzzzzz");
    assertEquals(List.of("/proc/sys/net", "/proc/sys/net/core"), KnobChecks.dirsToList(leaf));
    assertEquals(List.of(), KnobChecks.dirsToList(KnobCatalogue.parse("block.sdb.nr_requests")));
    // the host's own listing: /proc/sys/net/cor does not exist, so it is not in it
    Map<String, List<String>> listing =
        Map.of(
            "/proc/sys/net", List.of("core", "ipv4", "unix"),
            "/proc/sys/net/core", List.of("netdev_budget", "rmem_max", "somaxconn"));
    Map<Knob, List<String>> values = new LinkedHashMap<>();
    values.put(leaf, List.of("4096"));
    values.put(dir, List.of("4096"));
    values.put(unlike, List.of("1"));
    Map<String, ReadResult> reads = Map.of();

    assertEquals(
        List.of(
            "net.core.somaxconm: /proc/sys/net/core/somaxconm does not exist (did you mean"
                + " 'net.core.somaxconn'?)",
            "net.cor.somaxconn: /proc/sys/net/cor/somaxconn does not exist (net has no 'cor'; did"
                + " you mean 'net.core'?)",
            "net.core.zzzzzzzzzz: /proc/sys/net/core/zzzzzzzzzz does not exist"),
        KnobChecks.checkAll(values, reads, listing));
    // without a listing, no hint
    assertEquals(
        List.of("net.core.somaxconm: /proc/sys/net/core/somaxconm does not exist"),
        KnobChecks.checkAll(Map.of(leaf, List.of("4096")), reads));
  }
}
