package io.tunelab.knob;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Maps knob names to the files that hold them, sysctl(8)-style: {@code vm.dirty_ratio} is {@code
 * /proc/sys/vm/dirty_ratio}, {@code block.sdb.read_ahead_kb} is {@code
 * /sys/block/sdb/queue/read_ahead_kb}. docs/knobs.md is the user's copy of these rules.
 */
public final class KnobCatalogue {
  /** Top-level {@code /proc/sys} directories reachable by a dotted sysctl name. */
  static final List<String> SYSCTL_FAMILIES = List.of("vm", "kernel", "net", "fs", "dev", "sunrpc");

  static final List<String> FAMILIES =
      List.of(
          "vm", "kernel", "net", "fs", "dev", "sunrpc", "block", "bdi", "nfsd", "sysfs:", "proc:");

  /** Writable files of {@code /sys/block/<dev>/queue} with a catalogue name. */
  static final List<String> QUEUE_ATTRIBUTES =
      List.of(
          "scheduler",
          "read_ahead_kb",
          "max_sectors_kb",
          "nr_requests",
          "rotational",
          "nomerges",
          "rq_affinity",
          "wbt_lat_usec",
          "add_random",
          "iostats",
          "io_timeout",
          "write_cache",
          "discard_max_bytes",
          "stable_writes");

  /** Queue files whose write freezes the request queue while the kernel reconfigures it. */
  private static final List<String> QUEUE_FREEZING =
      List.of("scheduler", "nr_requests", "max_sectors_kb");

  /** Queue files that describe the device and cannot be written. */
  private static final List<String> READ_ONLY_QUEUE_ATTRIBUTES =
      List.of(
          "max_hw_sectors_kb",
          "hw_sector_size",
          "logical_block_size",
          "physical_block_size",
          "minimum_io_size",
          "optimal_io_size",
          "max_segments",
          "max_segment_size",
          "discard_granularity",
          "chunk_sectors",
          "zoned");

  /** Files of {@code /sys/class/bdi/<dev>} with a catalogue name. */
  static final List<String> BDI_ATTRIBUTES =
      List.of(
          "read_ahead_kb",
          "min_ratio",
          "max_ratio",
          "min_bytes",
          "max_bytes",
          "strict_limit",
          "stable_pages_required");

  /**
   * The {@code /proc/sys/vm} files of Linux 4.19 to 6.18. A name a typo away from one of them is
   * refused before anything runs; any other name passes, so that a sysctl a patched or newer kernel
   * adds still reaches the host check.
   */
  static final List<String> VM_SYSCTLS =
      List.of(
          "admin_reserve_kbytes",
          "compact_memory",
          "compact_unevictable_allowed",
          "compaction_proactiveness",
          "defrag_mode",
          "dirty_background_bytes",
          "dirty_background_ratio",
          "dirty_bytes",
          "dirty_expire_centisecs",
          "dirty_ratio",
          "dirty_writeback_centisecs",
          "dirtytime_expire_seconds",
          "drop_caches",
          "enable_soft_offline",
          "extfrag_threshold",
          "highmem_is_dirtyable",
          "hugetlb_optimize_vmemmap",
          "hugetlb_shm_group",
          "laptop_mode",
          "legacy_va_layout",
          "lowmem_reserve_ratio",
          "max_map_count",
          "mem_profiling",
          "memfd_noexec",
          "memory_failure_early_kill",
          "memory_failure_recovery",
          "min_free_kbytes",
          "min_slab_ratio",
          "min_unmapped_ratio",
          "mmap_min_addr",
          "mmap_rnd_bits",
          "mmap_rnd_compat_bits",
          "nr_hugepages",
          "nr_hugepages_mempolicy",
          "nr_overcommit_hugepages",
          "nr_trim_pages",
          "numa_stat",
          "numa_zonelist_order",
          "oom_dump_tasks",
          "oom_kill_allocating_task",
          "overcommit_kbytes",
          "overcommit_memory",
          "overcommit_ratio",
          "page-cluster",
          "page_lock_unfairness",
          "panic_on_oom",
          "percpu_pagelist_high_fraction",
          "shrink_inodes_with_pagecache",
          "stat_interval",
          "stat_refresh",
          "swappiness",
          "unprivileged_userfaultfd",
          "user_reserve_kbytes",
          "vfs_cache_pressure",
          "vfs_cache_pressure_denom",
          "watermark_boost_factor",
          "watermark_scale_factor",
          "zone_reclaim_mode");

  private static final Pattern WORD = Pattern.compile("[A-Za-z0-9_-]+");
  // Block and bdi device names: loop3, nvme0n1, dm-0, and bdi's 8:16 or 0:52.
  private static final Pattern DEVICE = Pattern.compile("[A-Za-z0-9_:-]+");
  private static final Pattern PATH_SEGMENT = Pattern.compile("[A-Za-z0-9_.:-]+");

  private KnobCatalogue() {}

  /** The known {@code block.<dev>.<attr>} attributes, in catalogue order. */
  public static List<String> queueAttributes() {
    return QUEUE_ATTRIBUTES;
  }

  /**
   * Whether writing the knob {@code name} (without role, {@code ${…}} allowed in the device) makes
   * the kernel freeze the device's request queue, tens of milliseconds a write: the scheduler,
   * {@code nr_requests} and {@code max_sectors_kb}.
   */
  public static boolean freezesQueue(String name) {
    String attr;
    if (name.startsWith("block.")) {
      attr = name.substring(name.lastIndexOf('.') + 1);
    } else if (name.startsWith("sysfs:") && name.contains("/queue/")) {
      attr = name.substring(name.lastIndexOf('/') + 1);
    } else {
      return false;
    }
    return QUEUE_FREEZING.contains(attr);
  }

  /** The known {@code bdi.<dev>.<attr>} attributes, in catalogue order. */
  public static List<String> bdiAttributes() {
    return BDI_ATTRIBUTES;
  }

  /**
   * Parses a knob name (without role), e.g. {@code vm.dirty_ratio}.
   *
   * @throws IllegalArgumentException with a one-line message saying what is wrong and, where it
   *     can, what was meant
   */
  public static Knob parse(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("empty knob name");
    }
    if (!name.equals(name.strip()) || name.chars().anyMatch(Character::isWhitespace)) {
      throw bad(name, "a knob name cannot contain spaces");
    }
    int dollar = name.indexOf("${");
    if (dollar >= 0) {
      int end = name.indexOf('}', dollar);
      String var = end < 0 ? name.substring(dollar) : name.substring(dollar, end + 1);
      throw bad(name, "'" + var + "' is not substituted");
    }
    if (name.startsWith("sysfs:")) {
      return rawPath(name, "sysfs:", "/sys/", Knob.Kind.SYSFS);
    }
    if (name.startsWith("proc:")) {
      return rawPath(name, "proc:", "/proc/", Knob.Kind.PROC);
    }
    if (name.startsWith("/")) {
      String prefix = name.startsWith("/proc/") ? "proc:" : "sysfs:";
      String meant = catalogueNameFor(name).orElse(prefix + name);
      throw bad(name, "a file path needs a prefix: write '" + meant + "'");
    }
    int dot = name.indexOf('.');
    int colon = name.indexOf(':');
    if (colon >= 0 && (dot < 0 || colon < dot)) {
      String family = name.substring(0, colon + 1);
      throw bad(
          name,
          "unknown prefix '" + family + "'" + Spelling.hint(family, List.of("sysfs:", "proc:")));
    }
    String[] parts = name.split("\\.", -1);
    String family = parts[0];
    if (SYSCTL_FAMILIES.contains(family)) {
      return sysctl(name, parts);
    }
    switch (family) {
      case "block":
        return block(name, parts);
      case "bdi":
        return bdi(name, parts);
      case "nfsd":
        return nfsd(name, parts);
      default:
        String hint = Spelling.hint(family, FAMILIES);
        throw bad(
            name,
            "unknown family '"
                + family
                + "'"
                + (hint.isEmpty() ? " (known: " + String.join(" ", FAMILIES) + ")" : hint));
    }
  }

  /**
   * Files besides the knob's own that preflight reads to judge it: the device's {@code dev} file
   * (tells "no such device" from "no such attribute"), {@code max_hw_sectors_kb} for {@code
   * max_sectors_kb}, the scheduler for {@code iosched.*} (names the active one), the partner of an
   * exclusive pair, and for a bdi attribute the bdi's {@code read_ahead_kb}.
   */
  public static List<String> relatedPaths(Knob k) {
    List<String> paths = new ArrayList<>();
    String attr = attribute(k);
    switch (k.kind()) {
      case BLOCK_QUEUE, BLOCK_SCHEDULER, BLOCK_IOSCHED -> {
        if (attr.equals("max_sectors_kb")) {
          paths.add(queuePath(k.device(), "max_hw_sectors_kb"));
        }
        if (k.kind() == Knob.Kind.BLOCK_IOSCHED) {
          paths.add(queuePath(k.device(), "scheduler"));
        }
        paths.add(devicePresencePath(k.device()));
      }
      case BDI -> {
        if (!attr.equals("read_ahead_kb")) {
          paths.add(bdiPath(k.device(), "read_ahead_kb"));
        }
      }
      default -> ExclusivePair.containing(k).ifPresent(p -> paths.add(p.other(k).path()));
    }
    return List.copyOf(paths);
  }

  /** The last component of the knob's file: {@code scheduler}, {@code fifo_batch}. */
  public static String attribute(Knob k) {
    return k.path().substring(k.path().lastIndexOf('/') + 1);
  }

  /** {@code /sys/block/<dev>/queue/<attr>}. */
  static String queuePath(String dev, String attr) {
    return "/sys/block/" + dev + "/queue/" + attr;
  }

  /** A file every block device has; its absence means the device is absent. */
  static String devicePresencePath(String dev) {
    return "/sys/block/" + dev + "/dev";
  }

  static String bdiPath(String dev, String attr) {
    return "/sys/class/bdi/" + dev + "/" + attr;
  }

  private static Knob sysctl(String name, String[] parts) {
    if (parts.length == 1) {
      throw bad(name, "'" + name + "' is a family, not a knob: write " + name + ".<name>");
    }
    StringBuilder path = new StringBuilder("/proc/sys");
    for (String part : parts) {
      checkWord(name, part, "name part");
      path.append('/').append(part);
    }
    if (parts[0].equals("vm") && parts.length == 2 && !VM_SYSCTLS.contains(parts[1])) {
      Optional<String> meant = Spelling.typoOf(parts[1], VM_SYSCTLS);
      if (meant.isPresent()) {
        throw bad(name, "no such vm sysctl (did you mean 'vm." + meant.get() + "'?)");
      }
    }
    refuseAllInterfaces(name, path.toString());
    return new Knob(name, path.toString(), Knob.Kind.SYSCTL, null);
  }

  /**
   * Refuses {@code net.ipv4.conf.all.*} and {@code net.ipv6.conf.all.*}: the kernel copies some of
   * them into every interface's own file (forwarding, disable_ipv6), so writing one changes files
   * no journal holds, and restoring it would give every interface the same value, not its own.
   * {@code conf.default.*} stays: it is one file, followed only by interfaces that never had their
   * own value written, and restoring it gives those back theirs.
   */
  private static void refuseAllInterfaces(String name, String path) {
    for (String family : List.of("ipv4", "ipv6")) {
      String all = "/proc/sys/net/" + family + "/conf/all/";
      if (path.startsWith(all) && path.length() > all.length()) {
        String attr = path.substring(all.length());
        throw bad(
            name,
            "conf.all is copied into every interface's own file, which no restore could put"
                + " back: set net."
                + family
                + ".conf.IFACE."
                + attr
                + " for each interface instead (IFACE as /proc/sys/net/"
                + family
                + "/conf lists it)");
      }
    }
  }

  private static Knob block(String name, String[] parts) {
    String usage = "expected block.<device>.<attribute>, e.g. block.sdb.read_ahead_kb";
    if (parts.length < 3) {
      throw bad(name, usage);
    }
    String dev = parts[1];
    checkDevice(name, dev);
    String attr = parts[2];
    if (attr.equals("iosched")) {
      if (parts.length != 4 || parts[3].isEmpty()) {
        throw bad(
            name, "expected block.<device>.iosched.<name>, e.g. block.sdb.iosched.fifo_batch");
      }
      checkWord(name, parts[3], "iosched attribute");
      String path = "/sys/block/" + dev + "/queue/iosched/" + parts[3];
      return new Knob(name, path, Knob.Kind.BLOCK_IOSCHED, dev);
    }
    if (attr.equals("queue") && parts.length == 4) {
      throw bad(name, "leave out 'queue': write 'block." + dev + "." + parts[3] + "'");
    }
    if (parts.length != 3) {
      throw bad(name, usage);
    }
    checkWord(name, attr, "attribute");
    if (READ_ONLY_QUEUE_ATTRIBUTES.contains(attr)) {
      throw bad(name, "queue attribute '" + attr + "' is read-only (a device limit)");
    }
    if (!QUEUE_ATTRIBUTES.contains(attr)) {
      List<String> known = new ArrayList<>(QUEUE_ATTRIBUTES);
      known.add("iosched");
      throw bad(
          name,
          "unknown queue attribute '"
              + attr
              + "'"
              + Spelling.hint(attr, known)
              + "; any other file: sysfs:"
              + queuePath(dev, attr));
    }
    Knob.Kind kind = attr.equals("scheduler") ? Knob.Kind.BLOCK_SCHEDULER : Knob.Kind.BLOCK_QUEUE;
    return new Knob(name, queuePath(dev, attr), kind, dev);
  }

  private static Knob bdi(String name, String[] parts) {
    if (parts.length != 3) {
      throw bad(name, "expected bdi.<device>.<attribute>, e.g. bdi.8:16.max_ratio");
    }
    String dev = parts[1];
    checkDevice(name, dev);
    String attr = parts[2];
    checkWord(name, attr, "attribute");
    if (!BDI_ATTRIBUTES.contains(attr)) {
      throw bad(
          name,
          "unknown bdi attribute '"
              + attr
              + "'"
              + Spelling.hint(attr, BDI_ATTRIBUTES)
              + "; any other file: sysfs:"
              + bdiPath(dev, attr));
    }
    return new Knob(name, bdiPath(dev, attr), Knob.Kind.BDI, dev);
  }

  private static Knob nfsd(String name, String[] parts) {
    if (parts.length == 2 && parts[1].equals("threads")) {
      return new Knob(name, "/proc/fs/nfsd/threads", Knob.Kind.NFSD_THREADS, null);
    }
    String rest = name.substring(Math.min(name.length(), "nfsd.".length()));
    String other =
        WORD.matcher(rest).matches() ? "; any other file: proc:/proc/fs/nfsd/" + rest : "";
    throw bad(
        name, "unknown nfsd knob '" + rest + "'" + Spelling.hint(rest, List.of("threads")) + other);
  }

  private static Knob rawPath(String name, String prefix, String root, Knob.Kind kind) {
    String path = name.substring(prefix.length());
    if (!path.startsWith(root)) {
      throw bad(name, "a " + prefix + " path must be absolute and start with " + root);
    }
    if (path.length() == root.length()) {
      throw bad(name, "'" + path + "' is a directory, not a file");
    }
    if (kind == Knob.Kind.PROC && !path.startsWith("/proc/sys/") && !path.startsWith("/proc/fs/")) {
      // Per-process files (/proc/<pid>, /proc/self) lead anywhere, /proc/1/root to every file.
      throw bad(name, "a proc: path must be under /proc/sys/ or /proc/fs/");
    }
    for (String segment : path.substring(1).split("/", -1)) {
      if (segment.isEmpty()) {
        throw bad(name, "empty path segment (a '//' or a trailing '/')");
      }
      if (segment.equals("..") || segment.equals(".")) {
        throw bad(name, "'" + segment + "' is not allowed in a path");
      }
      if (!PATH_SEGMENT.matcher(segment).matches()) {
        throw bad(
            name, "path segment '" + segment + "' may only contain letters, digits and _ . : - /");
      }
    }
    refuseAllInterfaces(name, path);
    Optional<String> canonical = catalogueNameFor(path);
    if (canonical.isPresent()) {
      // One name per file, so the ordering and pair rules cannot be bypassed.
      throw bad(name, "this file has a catalogue name: write '" + canonical.get() + "'");
    }
    return new Knob(name, path, kind, null);
  }

  /** The catalogue name of a file, when it has one. */
  static Optional<String> catalogueNameFor(String path) {
    String[] s = path.substring(1).split("/");
    if (s.length >= 4 && s[0].equals("proc") && s[1].equals("sys")) {
      for (int i = 2; i < s.length; i++) {
        if (!WORD.matcher(s[i]).matches()) {
          return Optional.empty(); // e.g. net/ipv4/conf/eth0.100: only reachable as proc:
        }
      }
      if (SYSCTL_FAMILIES.contains(s[2])) {
        return Optional.of(String.join(".", List.of(s).subList(2, s.length)));
      }
      return Optional.empty();
    }
    if (s.length == 5 && s[0].equals("sys") && s[1].equals("block") && s[3].equals("queue")) {
      return QUEUE_ATTRIBUTES.contains(s[4]) && DEVICE.matcher(s[2]).matches()
          ? Optional.of("block." + s[2] + "." + s[4])
          : Optional.empty();
    }
    if (s.length == 6
        && s[0].equals("sys")
        && s[1].equals("block")
        && s[3].equals("queue")
        && s[4].equals("iosched")
        && DEVICE.matcher(s[2]).matches()
        && WORD.matcher(s[5]).matches()) {
      return Optional.of("block." + s[2] + ".iosched." + s[5]);
    }
    if (s.length == 5 && s[0].equals("sys") && s[1].equals("class") && s[2].equals("bdi")) {
      return BDI_ATTRIBUTES.contains(s[4]) && DEVICE.matcher(s[3]).matches()
          ? Optional.of("bdi." + s[3] + "." + s[4])
          : Optional.empty();
    }
    if (path.equals("/proc/fs/nfsd/threads")) {
      return Optional.of("nfsd.threads");
    }
    return Optional.empty();
  }

  private static void checkDevice(String name, String dev) {
    if (dev.isEmpty()) {
      throw bad(name, "the device name is empty");
    }
    if (!DEVICE.matcher(dev).matches()) {
      throw bad(name, "device name '" + dev + "' may only contain letters, digits and _ - :");
    }
  }

  private static void checkWord(String name, String part, String what) {
    if (part.isEmpty()) {
      throw bad(name, "empty " + what + " (two dots in a row, or a trailing dot?)");
    }
    if (!WORD.matcher(part).matches()) {
      throw bad(name, what + " '" + part + "' may only contain letters, digits, _ and -");
    }
  }

  private static IllegalArgumentException bad(String name, String detail) {
    return new IllegalArgumentException("knob '" + name + "': " + detail);
  }
}
