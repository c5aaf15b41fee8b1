package io.tunelab.knob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agent.ApplyPayload;
import io.tunelab.testing.GoldenFiles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ApplyPlannerTest {
  static final String Q = FakeKernel.Q;

  /** A sequence of trials against a fake host, written down for the golden file. */
  static final class Run {
    final FakeKernel host;
    final List<Knob> knobs = new ArrayList<>();
    final Map<String, String> originals;
    final StringBuilder out;
    Map<String, String> current = Map.of();
    int trial;

    Run(StringBuilder out, String title, FakeKernel host, String... names) {
      this.out = out;
      this.host = host;
      for (String n : names) {
        knobs.add(KnobCatalogue.parse(n));
      }
      originals = ApplyPlanner.originals(knobs, host.readAll(KnobChecks.pathsToRead(knobs)));
      out.append("== ").append(title).append('\n');
      out.append("originals: ").append(state()).append('\n');
    }

    void trial(String... values) {
      Map<Knob, String> requested = new LinkedHashMap<>();
      StringBuilder header = new StringBuilder();
      for (int i = 0; i < knobs.size(); i++) {
        requested.put(knobs.get(i), values[i]);
        header.append(' ').append(shortName(knobs.get(i))).append('=').append(values[i]);
      }
      List<ApplyLine> lines = ApplyPlanner.plan(requested, originals, current, trial == 0);
      out.append("-- trial ").append(++trial).append(':').append(header).append('\n');
      ApplyPayload.of(lines).forEach(l -> out.append("  ").append(l).append('\n'));
      Map<String, String> eff = host.apply(lines);
      host.failures.forEach(f -> out.append("  FAILED ").append(f).append('\n'));
      current = ApplyPlanner.afterApply(current, lines, eff);
      out.append("  host: ").append(state()).append('\n');
    }

    /** What the runner does after a failed apply: trust nothing it believed. */
    void forget() {
      current = Map.of();
      out.append("-- (state forgotten, as after a failed apply)\n");
    }

    void restore() {
      out.append("-- restore (journal order)\n");
      host.journal().forEach(j -> out.append("  ").append(j).append('\n'));
      host.restore();
      host.failures.forEach(f -> out.append("  FAILED ").append(f).append('\n'));
      out.append("  host: ").append(state()).append("\n\n");
    }

    String state() {
      StringBuilder s = new StringBuilder();
      List<Knob> shown = new ArrayList<>(knobs);
      for (Knob k : knobs) {
        ExclusivePair.containing(k)
            .map(p -> p.other(k))
            .filter(o -> !shown.contains(o))
            .ifPresent(shown::add);
      }
      for (Knob k : shown) {
        String v = host.read(k.path());
        s.append(s.length() == 0 ? "" : " ")
            .append(shortName(k))
            .append('=')
            .append(v == null ? "(absent)" : KnobValues.normalize(k, v));
      }
      return s.toString();
    }

    static String shortName(Knob k) {
      return k.name().replace("block.loop3.", "");
    }
  }

  @Test
  void scenarios() {
    StringBuilder out = new StringBuilder();

    Run r =
        new Run(
            out,
            "scheduler then its iosched values; default follows the original",
            new FakeKernel("mq-deadline"),
            "block.loop3.iosched.fifo_batch",
            "block.loop3.scheduler");
    r.trial("default", "default");
    r.trial("default", "bfq");
    r.trial("8", "mq-deadline");
    r.trial("8", "mq-deadline");
    r.trial("default", "mq-deadline");
    r.trial("32", "default");
    r.restore();

    r =
        new Run(
            out,
            "scheduler-owned defaults under another scheduler are its fresh values",
            new FakeKernel("mq-deadline"),
            "block.loop3.scheduler",
            "block.loop3.iosched.slice_idle",
            "block.loop3.nr_requests");
    r.trial("bfq", "0", "default");
    r.trial("bfq", "default", "64");
    r.trial("bfq", "default", "64");
    r.trial("bfq", "default", "default");
    r.trial("none", "default", "default");
    r.trial("default", "default", "default");
    r.restore();

    r =
        new Run(
            out,
            "unknown state: pass through the original scheduler to get fresh defaults",
            new FakeKernel("mq-deadline"),
            "block.loop3.scheduler",
            "block.loop3.iosched.slice_idle");
    r.trial("bfq", "0");
    r.forget();
    r.trial("bfq", "default");
    r.forget();
    r.trial("default", "default");
    r.restore();

    r =
        new Run(
            out,
            "nr_requests recomputes mq-deadline's async_depth",
            new FakeKernel("mq-deadline"),
            "block.loop3.scheduler",
            "block.loop3.nr_requests",
            "block.loop3.iosched.async_depth");
    r.trial("default", "64", "default");
    r.trial("default", "64", "10");
    r.trial("kyber", "default", "default");
    r.trial("default", "default", "default");
    r.restore();

    r =
        new Run(
            out,
            "dirty pair: bytes, ratio, back to default (ratio active at start)",
            new FakeKernel("none"),
            "vm.dirty_bytes",
            "vm.dirty_ratio");
    r.trial("100M", "default");
    r.trial("100M", "default");
    r.trial("default", "10");
    r.trial("default", "default");
    r.trial("default", "default");
    r.trial("1G", "default");
    r.trial("default", "0");
    r.trial("default", "default");
    r.restore();

    FakeKernel bytesActive = new FakeKernel("none");
    bytesActive.write("/proc/sys/vm/dirty_background_bytes", "67108864");
    r =
        new Run(
            out,
            "dirty background pair, only the ratio used; bytes active at start",
            bytesActive,
            "vm.dirty_background_ratio");
    r.trial("5");
    r.trial("default");
    r.trial("0");
    r.trial("default");
    r.restore();

    r =
        new Run(
            out,
            "only changed knobs are written; max_sectors_kb may reset read-ahead",
            new FakeKernel("none"),
            "block.loop3.read_ahead_kb",
            "block.loop3.max_sectors_kb",
            "vm.dirty_expire_centisecs",
            "net.ipv4.tcp_rmem",
            "sysfs:/sys/module/loop/parameters/max_part");
    r.trial("512", "default", "default", "default", "default");
    r.trial("512", "64", "500", "default", "default");
    r.trial("1001", "64", "500", "4096  87380 6291456", "8");
    r.trial("1001", "64", "500", "4096 87380 6291456", "8");
    r.trial("default", "default", "default", "default", "default");
    r.restore();

    GoldenFiles.assertMatches("knob/apply-scenarios.txt", out.toString());
  }

  @Test
  void theOvercommitPairIsRestoredToTheMemberThatWasActive() {
    StringBuilder out = new StringBuilder();
    Run r =
        new Run(
            out,
            "overcommit pair: kbytes set, ratio active at start",
            new FakeKernel("none"),
            "vm.overcommit_kbytes");
    r.trial("1048576");
    r.trial("default");
    r.trial("2097152");
    r.restore();
    GoldenFiles.assertMatches("knob/apply-overcommit.txt", out.toString());
    assertTrue(
        out.toString().endsWith("host: vm.overcommit_kbytes=0 vm.overcommit_ratio=50\n\n"),
        out.toString());
  }

  @Test
  void bothMembersOfAPairInOneCellConflict() {
    Map<Knob, String> requested = new LinkedHashMap<>();
    requested.put(KnobCatalogue.parse("vm.dirty_bytes"), "100M");
    requested.put(KnobCatalogue.parse("vm.dirty_ratio"), "20");
    Optional<String> problem = ApplyPlanner.conflicts(requested);
    assertEquals(
        Optional.of(
            "vm.dirty_bytes=100M and vm.dirty_ratio=20 exclude each other: the kernel keeps only"
                + " the one written last, so a cell may set one of them (the other must be"
                + " default)"),
        problem);
    assertThrows(
        IllegalArgumentException.class,
        () -> ApplyPlanner.plan(requested, Map.of(), Map.of(), true));
    requested.put(KnobCatalogue.parse("vm.dirty_ratio"), "default");
    assertEquals(Optional.empty(), ApplyPlanner.conflicts(requested));
  }

  @Test
  void savesComeOnlyWithTheFirstApply() {
    Knob ra = KnobCatalogue.parse("block.loop3.read_ahead_kb");
    Map<Knob, String> requested = Map.of(ra, "512");
    Map<String, String> originals = Map.of(ra.path(), "128");
    assertEquals(
        List.of("save\t" + ra.path(), "set\t" + ra.path() + "\t512"),
        ApplyPayload.of(ApplyPlanner.plan(requested, originals, Map.of(), true)));
    assertEquals(
        List.of("set\t" + ra.path() + "\t512"),
        ApplyPayload.of(ApplyPlanner.plan(requested, originals, Map.of(), false)));
  }

  @Test
  void everyRequestedFileIsReadBackEveryTrial() {
    Knob ra = KnobCatalogue.parse("block.loop3.read_ahead_kb");
    Knob sched = KnobCatalogue.parse("block.loop3.scheduler");
    Map<Knob, String> requested = new LinkedHashMap<>();
    requested.put(ra, "default");
    requested.put(sched, "default");
    Map<String, String> originals = Map.of(ra.path(), "128", sched.path(), "none");
    List<ApplyLine> lines = ApplyPlanner.plan(requested, originals, originals, false);
    assertEquals(List.of("check\t" + sched.path(), "check\t" + ra.path()), ApplyPayload.of(lines));
    assertEquals("none", lines.get(0).value());
  }

  @Test
  void randomTrialsLeaveTheHostAsRequestedAndRestoreRestoresAll() {
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
    List<String> names =
        List.of(
            "vm.dirty_expire_centisecs",
            "block.loop3.iosched.fifo_batch",
            "block.loop3.iosched.async_depth",
            "block.loop3.iosched.slice_idle",
            "block.loop3.read_ahead_kb",
            "block.loop3.wbt_lat_usec",
            "block.loop3.nr_requests",
            "block.loop3.max_sectors_kb",
            "block.loop3.scheduler",
            "vm.dirty_bytes",
            "vm.dirty_ratio",
            "vm.dirty_background_ratio",
            "vm.dirty_background_bytes");
    List<Knob> knobs = names.stream().map(KnobCatalogue::parse).toList();
    for (int experiment = 0; experiment < 100; experiment++) {
      String origSched = pick(rnd, "none", "mq-deadline", "bfq", "kyber");
      FakeKernel host = new FakeKernel(origSched);
      if (rnd.nextBoolean()) {
        host.write("/proc/sys/vm/dirty_bytes", "268435456");
      }
      if (rnd.nextBoolean()) {
        host.write("/proc/sys/vm/dirty_background_bytes", "67108864");
      }
      if (rnd.nextBoolean()) {
        host.write(Q + "nr_requests", "100");
      }
      Map<String, String> initial = host.snapshot();
      Map<String, String> originals =
          ApplyPlanner.originals(knobs, host.readAll(KnobChecks.pathsToRead(knobs)));
      Map<String, String> current = Map.of();
      for (int t = 0; t < 25; t++) {
        Map<Knob, String> req = randomTrial(rnd, knobs, origSched);
        StringBuilder context = new StringBuilder("experiment " + experiment + " trial " + t + ":");
        req.forEach((k, v) -> context.append(' ').append(Run.shortName(k)).append('=').append(v));
        List<ApplyLine> lines = ApplyPlanner.plan(req, originals, current, t == 0);
        Map<String, String> eff = host.apply(lines);
        assertEquals(List.of(), host.failures, context.toString());
        current = ApplyPlanner.afterApply(current, lines, eff);
        if (rnd.nextInt(10) == 0) {
          current = Map.of(); // as the runner does after a failed apply
        }
        verify(host, req, initial, origSched, context.toString());
      }
      host.restore();
      assertEquals(List.of(), host.failures, "restore of experiment " + experiment);
      assertEquals(initial, host.snapshot(), "restore of experiment " + experiment);
    }
  }

  private static Map<Knob, String> randomTrial(
      java.util.SplittableRandom rnd, List<Knob> knobs, String origSched) {
    Map<Knob, String> req = new LinkedHashMap<>();
    String sched = pick(rnd, "default", "none", "mq-deadline", "bfq", "kyber");
    String effSched = sched.equals("default") ? origSched : sched;
    int pair = rnd.nextInt(3);
    int background = rnd.nextInt(3);
    for (Knob k : knobs) {
      String v =
          switch (k.name().replace("block.loop3.", "")) {
            case "scheduler" -> sched;
            case "iosched.fifo_batch" ->
                effSched.equals("mq-deadline") ? pick(rnd, "default", "8", "32") : "default";
            case "iosched.async_depth" ->
                effSched.equals("mq-deadline") ? pick(rnd, "default", "10") : "default";
            case "iosched.slice_idle" ->
                effSched.equals("bfq") ? pick(rnd, "default", "0", "4") : "default";
            case "nr_requests" -> pick(rnd, "default", "64", "512", "2");
            case "read_ahead_kb" -> pick(rnd, "default", "512", "1001");
            case "max_sectors_kb" -> pick(rnd, "default", "64", "510");
            case "wbt_lat_usec" -> pick(rnd, "default", "0", "5000");
            case "vm.dirty_bytes" -> pair == 1 ? pick(rnd, "100M", "1G") : "default";
            case "vm.dirty_ratio" -> pair == 2 ? pick(rnd, "0", "5", "40") : "default";
            case "vm.dirty_background_bytes" -> background == 1 ? "10M" : "default";
            case "vm.dirty_background_ratio" -> background == 2 ? pick(rnd, "0", "3") : "default";
            default -> pick(rnd, "default", "500");
          };
      req.put(k, v);
    }
    return req;
  }

  /** What the host must hold after a trial, computed from kernel facts, not from the planner. */
  private static void verify(
      FakeKernel host,
      Map<Knob, String> req,
      Map<String, String> initial,
      String origSched,
      String context) {
    Map<String, String> now = host.snapshot();
    Map<String, String> byName = new LinkedHashMap<>();
    req.forEach((k, v) -> byName.put(k.name().replace("block.loop3.", ""), v));
    String effSched =
        byName.get("scheduler").equals("default") ? origSched : byName.get("scheduler");
    assertEquals(effSched, host.scheduler(), context);
    boolean sameScheduler = effSched.equals(origSched);

    String nr = byName.get("nr_requests");
    long nrWanted =
        !nr.equals("default")
            ? Math.max(4, Long.parseLong(nr))
            : sameScheduler
                ? Long.parseLong(initial.get(Q + "nr_requests"))
                : FakeKernel.freshNrRequests(effSched);
    assertEquals(Long.toString(nrWanted), now.get(Q + "nr_requests"), "nr_requests " + context);

    Map<String, String> fresh = FakeKernel.freshIosched(effSched, (int) nrWanted);
    for (String attr : List.of("fifo_batch", "async_depth", "slice_idle")) {
      String path = FakeKernel.IOSCHED + attr;
      String v = byName.get("iosched." + attr);
      String wanted;
      if (!fresh.containsKey(attr)) {
        wanted = null;
      } else if (!v.equals("default")) {
        wanted = v;
      } else {
        wanted = sameScheduler ? initial.get(path) : fresh.get(attr);
      }
      assertEquals(wanted, now.get(path), attr + " " + context);
    }
    for (String attr : List.of("read_ahead_kb", "max_sectors_kb", "wbt_lat_usec")) {
      String v = byName.get(attr);
      String wanted =
          v.equals("default")
              ? initial.get(Q + attr)
              : attr.equals("wbt_lat_usec") ? v : Long.toString(Long.parseLong(v) / 4 * 4);
      assertEquals(wanted, now.get(Q + attr), attr + " " + context);
    }
    String vm = "/proc/sys/vm/";
    assertEquals(
        byName.get("vm.dirty_expire_centisecs").equals("default")
            ? initial.get(vm + "dirty_expire_centisecs")
            : "500",
        now.get(vm + "dirty_expire_centisecs"),
        context);
    for (String[] pair :
        new String[][] {
          {"dirty_bytes", "dirty_ratio"}, {"dirty_background_bytes", "dirty_background_ratio"}
        }) {
      String bytes = byName.get("vm." + pair[0]);
      String ratio = byName.get("vm." + pair[1]);
      Knob bytesKnob = KnobCatalogue.parse("vm." + pair[0]);
      String wantBytes;
      String wantRatio;
      if (!bytes.equals("default")) {
        wantBytes = KnobValues.kernelValue(bytesKnob, bytes);
        wantRatio = "0";
      } else if (!ratio.equals("default")) {
        wantBytes = "0";
        wantRatio = ratio;
      } else {
        wantBytes = initial.get(vm + pair[0]);
        wantRatio = initial.get(vm + pair[1]);
      }
      assertEquals(wantBytes, now.get(vm + pair[0]), pair[0] + " " + context);
      assertEquals(wantRatio, now.get(vm + pair[1]), pair[1] + " " + context);
    }
    assertTrue(now.get(Q + "rotational").equals("0"), context);
  }

  @SafeVarargs
  private static <T> T pick(java.util.SplittableRandom rnd, T... choices) {
    return choices[rnd.nextInt(choices.length)];
  }
}
