package io.tunelab.knob;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A host's knob files with the kernel's side effects, and the agent's {@code apply} and {@code
 * restore} over them as docs/agent.md describes. One block device, loop3.
 */
final class FakeKernel {
  static final String DEV = "/sys/block/loop3";
  static final String Q = DEV + "/queue/";
  static final String IOSCHED = Q + "iosched/";
  static final List<String> OFFERED = List.of("none", "mq-deadline", "kyber", "bfq");
  static final int QUEUE_DEPTH = 128;
  static final int MAX_HW_SECTORS_KB = 2048;

  private final Map<String, String> files = new TreeMap<>();
  private final Set<String> readOnly = new HashSet<>();
  private final List<String[]> journal = new ArrayList<>();
  private String scheduler;
  private boolean wbtManual;
  final List<String> failures = new ArrayList<>();

  FakeKernel(String scheduler) {
    files.put(DEV + "/dev", "7:3");
    files.put(Q + "max_hw_sectors_kb", Integer.toString(MAX_HW_SECTORS_KB));
    readOnly.add(DEV + "/dev");
    readOnly.add(Q + "max_hw_sectors_kb");
    files.put(Q + "read_ahead_kb", "128");
    files.put(Q + "max_sectors_kb", "1280");
    files.put(Q + "rotational", "0");
    files.put(Q + "wbt_lat_usec", "2000");
    files.put("/proc/sys/vm/dirty_bytes", "0");
    files.put("/proc/sys/vm/dirty_ratio", "20");
    files.put("/proc/sys/vm/dirty_background_bytes", "0");
    files.put("/proc/sys/vm/dirty_background_ratio", "10");
    files.put("/proc/sys/vm/dirty_expire_centisecs", "3000");
    files.put("/proc/sys/vm/overcommit_kbytes", "0");
    files.put("/proc/sys/vm/overcommit_ratio", "50");
    files.put("/proc/sys/net/ipv4/tcp_rmem", "4096\t131072\t6291456");
    files.put("/sys/module/loop/parameters/max_part", "0");
    select(scheduler);
  }

  /** The fresh nr_requests of a scheduler. */
  static int freshNrRequests(String scheduler) {
    return scheduler.equals("none") ? QUEUE_DEPTH : 2 * Math.min(QUEUE_DEPTH, 128);
  }

  /** The fresh iosched files of a scheduler, given the queue's nr_requests. */
  static Map<String, String> freshIosched(String scheduler, int nrRequests) {
    Map<String, String> m = new LinkedHashMap<>();
    switch (scheduler) {
      case "mq-deadline" -> {
        m.put("read_expire", "500");
        m.put("write_expire", "5000");
        m.put("fifo_batch", "16");
        m.put("front_merges", "1");
        m.put("async_depth", Integer.toString(nrRequests));
      }
      case "bfq" -> {
        m.put("slice_idle", "8");
        m.put("low_latency", "1");
      }
      case "kyber" -> {
        m.put("read_lat_nsec", "2000000");
        m.put("write_lat_nsec", "10000000");
      }
      default -> {}
    }
    return m;
  }

  String scheduler() {
    return scheduler;
  }

  /** The file as the agent's read would show it; null when missing. */
  String read(String path) {
    if (path.equals(Q + "scheduler")) {
      StringBuilder line = new StringBuilder();
      for (String s : OFFERED) {
        line.append(line.length() == 0 ? "" : " ").append(s.equals(scheduler) ? "[" + s + "]" : s);
      }
      return line.toString();
    }
    return files.get(path);
  }

  ReadResult readResult(String path) {
    String v = read(path);
    if (v == null) {
      return ReadResult.missing();
    }
    return new ReadResult(readOnly.contains(path) ? ReadResult.State.RO : ReadResult.State.RW, v);
  }

  Map<String, ReadResult> readAll(List<String> paths) {
    Map<String, ReadResult> m = new LinkedHashMap<>();
    paths.forEach(p -> m.put(p, readResult(p)));
    return m;
  }

  /** Every file's value, the scheduler as its selected name. */
  Map<String, String> snapshot() {
    Map<String, String> m = new TreeMap<>(files);
    m.put(Q + "scheduler", scheduler);
    return m;
  }

  /** The agent's apply: saves, pair saves, writes in order, then read-backs. */
  Map<String, String> apply(List<ApplyLine> lines) {
    failures.clear();
    for (ApplyLine l : lines) {
      if (l.op() == ApplyLine.Op.SAVE) {
        save(l.path());
      }
    }
    for (ApplyLine l : lines) {
      if (l.op() == ApplyLine.Op.SAVEPAIR) {
        String a = l.knob().path();
        String b = l.partner().path();
        boolean aActive = !"0".equals(files.get(a));
        save(aActive ? a : b);
      }
    }
    for (ApplyLine l : lines) {
      if (l.op() == ApplyLine.Op.SET) {
        try {
          write(l.path(), l.value());
        } catch (IllegalArgumentException e) {
          failures.add(l.path() + ": " + e.getMessage());
        }
      }
    }
    Map<String, String> eff = new LinkedHashMap<>();
    for (ApplyLine l : lines) {
      if ((l.op() == ApplyLine.Op.SET || l.op() == ApplyLine.Op.CHECK) && read(l.path()) != null) {
        eff.put(l.path(), read(l.path()));
      }
    }
    return eff;
  }

  /** The agent's restore: the journal replayed in journal order, then discarded. */
  void restore() {
    failures.clear();
    for (String[] entry : journal) {
      try {
        write(entry[0], entry[1]);
      } catch (IllegalArgumentException e) {
        failures.add(entry[0] + ": " + e.getMessage());
      }
    }
    journal.clear();
  }

  List<String> journal() {
    return journal.stream().map(e -> e[0] + "\t" + e[1]).toList();
  }

  private void save(String path) {
    if (read(path) == null || journal.stream().anyMatch(e -> e[0].equals(path))) {
      return;
    }
    String value = path.equals(Q + "scheduler") ? scheduler : files.get(path);
    journal.add(new String[] {path, value});
  }

  void write(String path, String value) {
    if (read(path) == null) {
      throw new IllegalArgumentException("No such file or directory");
    }
    if (readOnly.contains(path)) {
      throw new IllegalArgumentException("Permission denied");
    }
    String attr = path.substring(path.lastIndexOf('/') + 1);
    if (path.equals(Q + "scheduler")) {
      if (!OFFERED.contains(value)) {
        throw new IllegalArgumentException("Invalid argument");
      }
      if (!value.equals(scheduler)) {
        select(value);
      }
    } else if (path.startsWith(Q) && !path.startsWith(IOSCHED)) {
      queue(attr, number(value));
    } else if (path.startsWith(IOSCHED)) {
      files.put(path, Long.toString(number(value)));
    } else if (path.startsWith("/proc/sys/vm/overcommit_") && !path.endsWith("overcommit_memory")) {
      // Either write zeroes the other, as mm/util.c's handlers do.
      String other = path.endsWith("kbytes") ? "ratio" : "kbytes";
      if (!value.equals(files.get(path))) {
        files.put(path, Long.toString(number(value)));
        files.put("/proc/sys/vm/overcommit_" + other, "0");
      }
    } else if (path.startsWith("/proc/sys/vm/dirty_")) {
      dirty(attr, number(value));
    } else {
      files.put(path, value);
    }
  }

  private void queue(String attr, long v) {
    switch (attr) {
      case "read_ahead_kb" -> files.put(Q + attr, Long.toString(v / 4 * 4));
      case "max_sectors_kb" -> {
        if (v > MAX_HW_SECTORS_KB || v < 4) {
          throw new IllegalArgumentException("Invalid argument");
        }
        files.put(Q + attr, Long.toString(v / 4 * 4));
        // Some kernels (not 6.18) recompute read-ahead whenever queue limits are committed.
        files.put(Q + "read_ahead_kb", "128");
      }
      case "nr_requests" -> {
        long nr = Math.max(4, v);
        files.put(Q + attr, Long.toString(nr));
        if (scheduler.equals("mq-deadline")) {
          files.put(IOSCHED + "async_depth", Long.toString(nr));
        }
      }
      case "wbt_lat_usec" -> {
        wbtManual = true;
        files.put(Q + attr, Long.toString(v < 0 ? 2000 : v));
      }
      default -> files.put(Q + attr, Long.toString(v));
    }
  }

  private void dirty(String attr, long v) {
    String vm = "/proc/sys/vm/";
    switch (attr) {
      case "dirty_bytes", "dirty_background_bytes" -> {
        if (v < (attr.equals("dirty_bytes") ? 8192 : 1)) {
          throw new IllegalArgumentException("Invalid argument");
        }
        String partner = attr.replace("bytes", "ratio");
        if (v != Long.parseLong(files.get(vm + attr))) {
          files.put(vm + attr, Long.toString(v));
          files.put(vm + partner, "0");
        }
      }
      case "dirty_ratio", "dirty_background_ratio" -> {
        if (v < 0 || v > 100) {
          throw new IllegalArgumentException("Invalid argument");
        }
        String partner = attr.replace("ratio", "bytes");
        if (v != Long.parseLong(files.get(vm + attr))) {
          files.put(vm + attr, Long.toString(v));
          files.put(vm + partner, "0");
        }
      }
      default -> files.put(vm + attr, Long.toString(v));
    }
  }

  private void select(String s) {
    scheduler = s;
    files.keySet().removeIf(p -> p.startsWith(IOSCHED));
    int nr = freshNrRequests(s);
    files.put(Q + "nr_requests", Integer.toString(nr));
    freshIosched(s, nr).forEach((k, v) -> files.put(IOSCHED + k, v));
    if (!wbtManual) {
      files.put(Q + "wbt_lat_usec", s.equals("bfq") ? "0" : "2000");
    }
  }

  private static long number(String v) {
    try {
      return Long.parseLong(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Invalid argument");
    }
  }
}
