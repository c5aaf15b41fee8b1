package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.tab;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One-shot calls: {@code sh tunelab-agent.sh VERB}, response unprefixed, status = exit code. */
class OneShotVerbsTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void helloNamesTheProtocolVersionAndPid(String shell, @TempDir Path dir) {
    Result hello = new AgentHarness(shell, dir).call("hello");

    assertEquals(0, hello.rc(), hello.stderr());
    assertEquals(List.of(tab("agent", 1), tab("pid", hello.pid())), hello.lines());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void factsDescribeTheHost(String shell, @TempDir Path dir) throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Result facts = agent.call("facts");

    assertEquals(0, facts.rc(), facts.stderr());
    for (String key :
        List.of("kernel_release", "boot_id", "cmdline", "hostname", "cpus", "mem_kb")) {
      assertTrue(facts.value(key).filter(v -> !v.isEmpty()).isPresent(), key + " in " + facts);
    }
    assertTrue(Integer.parseInt(facts.value("cpus").orElseThrow()) >= 1);
    assertTrue(Long.parseLong(facts.value("mem_kb").orElseThrow()) > 0);
    Object uid = Files.getAttribute(agent.state(), "unix:uid");
    assertEquals(String.valueOf(uid), facts.value("uid").orElseThrow());
    assertEquals("absent", facts.value("journal").orElseThrow());
    assertEquals(AgentHarness.bootId(), facts.value("boot_id").orElseThrow());
    long schedulers;
    try (Stream<Path> devices = Files.list(Path.of("/sys/block"))) {
      schedulers = devices.filter(d -> Files.isReadable(d.resolve("queue/scheduler"))).count();
    } catch (IOException e) {
      schedulers = 0;
    }
    List<String> blocks = facts.rest("block");
    assertEquals(schedulers, blocks.size(), facts.lines().toString());
    for (String block : blocks) {
      assertTrue(block.matches("[^\t]+\t.*\\[.+].*"), block);
    }
    assertHardwareFacts(facts);
  }

  /**
   * CPU model, cpufreq governor, kernel config hash and disk models: as /proc, /sys and /boot say.
   */
  private static void assertHardwareFacts(Result facts) throws IOException {
    String model =
        Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
            .filter(l -> l.startsWith("model name"))
            .map(l -> l.substring(l.indexOf(':') + 1).strip())
            .findFirst()
            .orElse(null);
    if (model != null) {
      assertEquals(model, facts.value("cpu_model").orElseThrow(), facts.lines().toString());
    }
    Path governor = Path.of("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
    assertEquals(
        Files.exists(governor) ? Optional.of(Files.readString(governor).strip()) : Optional.empty(),
        facts.value("cpufreq_governor"));
    Path config = Path.of("/boot/config-" + facts.value("kernel_release").orElseThrow());
    if (Files.isReadable(config)) {
      assertEquals("sha256:" + sha256(config), facts.value("kernel_config").orElseThrow());
    } else {
      assertEquals(Optional.empty(), facts.value("kernel_config"));
    }
    for (String what : List.of("model", "vendor")) {
      List<String> expected = new ArrayList<>();
      try (Stream<Path> devices = Files.list(Path.of("/sys/block")).sorted()) {
        for (Path d : devices.toList()) {
          Path file = d.resolve("device").resolve(what);
          if (Files.isReadable(d.resolve("queue/scheduler")) && Files.isReadable(file)) {
            String value = Files.readAllLines(file).get(0).replace('\t', ' ').strip();
            if (!value.isEmpty()) {
              expected.add(d.getFileName() + "\t" + value);
            }
          }
        }
      }
      assertEquals(expected, facts.rest(what), what);
    }
    for (String line : facts.lines()) {
      assertTrue(line.split("\t", -1).length <= 3, "a field too many: " + line);
    }
  }

  private static String sha256(Path file) throws IOException {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aCpuModelIsReadAsTheArchWritesIt(String shell, @TempDir Path dir) throws IOException {
    AgentLibrary agent = new AgentLibrary(shell, dir);
    String[][] cases = {
      {
        "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7302 16-Core Processor\n\n"
            + "processor\t: 1\nmodel name\t: other\n",
        "AMD EPYC 7302 16-Core Processor"
      },
      {
        "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\nCPU architecture: 8\n"
            + "CPU part\t: 0xd0c\n\nprocessor\t: 1\nCPU implementer\t: 0x99\n",
        "implementer 0x41 part 0xd0c"
      },
      {
        "processor\t: 0\ncpu\t\t: POWER9 (architected), altivec supported\nclock\t\t: 2200MHz\n\n",
        "POWER9 (architected), altivec supported"
      },
      {
        "processor\t: 0\nhart\t\t: 1\nisa\t\t: rv64imafdc\nuarch\t\t: sifive,u74-mc\n\n",
        "sifive,u74-mc"
      },
      {"processor\t: 0\nflags\t\t: fpu\n\n", ""},
    };
    for (String[] c : cases) {
      Path cpuinfo = dir.resolve("cpuinfo");
      Files.writeString(cpuinfo, c[0]);
      Result r = agent.run("cpu_model \"$1\"; printf '%s\\n' \"$CPU_MODEL\"", cpuinfo.toString());
      assertEquals(c[1], String.join("", r.lines()), c[0]);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void readTellsWritableReadOnlyAndMissing(String shell, @TempDir Path dir) throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path rw = agent.knob("read_ahead_kb", "128");
    Path ro = agent.knob("max_hw_sectors_kb", "512");
    Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r--r--r--"));
    Path multi = agent.knob("stat", "line one\nline two");
    Path tabs = agent.knob("tcp_rmem", "4096\t131072\t6291456");
    Path missing = agent.knobPath("nope");

    Result read =
        agent.call(
            "read",
            rw.toString(),
            ro.toString(),
            multi.toString(),
            tabs.toString(),
            missing.toString());

    assertEquals(0, read.rc(), read.stderr());
    assertEquals(
        List.of(
            tab("rw", rw, "128"),
            tab("ro", ro, "512"),
            tab("rw", multi, "line one line two"),
            tab("rw", tabs, "4096\t131072\t6291456"),
            tab("missing", missing, "")),
        read.lines());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void readNamesTheFileASymlinkedPathLeadsTo(String shell, @TempDir Path dir) throws IOException {
    // As /sys/block/loop3 leads to /sys/devices/virtual/block/loop3: two names, one file.
    AgentHarness agent = new AgentHarness(shell, dir);
    Files.createDirectories(agent.knobPath("devices/loop3/queue"));
    Path real = agent.knob("devices/loop3/queue/read_ahead_kb", "128").toRealPath();
    Path block = Files.createDirectories(agent.knobPath("block"));
    Files.createSymbolicLink(block.resolve("loop3"), real.getParent().getParent());
    Path viaLink = block.resolve("loop3/queue/read_ahead_kb");

    Result read = agent.call("read", viaLink.toString(), real.toString());

    assertEquals(0, read.rc(), read.stderr());
    assertEquals(
        List.of(tab("rw", viaLink, "128"), tab("resolved", viaLink, real), tab("rw", real, "128")),
        read.lines());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void listTellsEachDirectorysEntriesAndMissingDirectories(String shell, @TempDir Path dir)
      throws IOException {
    AgentHarness agent = new AgentHarness(shell, dir);
    Files.createDirectories(agent.knobPath("core"));
    agent.knob("core/somaxconn", "4096");
    agent.knob("core/netdev_budget", "300");
    Files.createDirectories(agent.knobPath("core/sub dir"));
    Path core = agent.knobPath("core");
    Path missing = agent.knobPath("cor");

    Result list = agent.call("list", core.toString(), missing.toString());

    assertEquals(0, list.rc(), list.stderr());
    assertEquals(
        List.of(
            tab("entry", core, "netdev_budget"),
            tab("entry", core, "somaxconn"),
            tab("entry", core, "sub dir"),
            tab("missing", missing, "")),
        list.lines());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void listRefusesADirectoryOutsideTheKnobTrees(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);

    Result list = agent.call("list", "/etc");

    assertEquals(1, list.rc(), list.stderr());
    assertEquals(1, list.lines().size(), list.lines().toString());
    assertTrue(list.lines().get(0).startsWith("fail\t/etc\trefused: "), list.lines().toString());
  }

  @Tag("integration") // needs root: the agent only reads files it could also write
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void readsRealProcSysFilesWhole(String shell, @TempDir Path dir) throws IOException {
    // /proc/sys answers a read at a non-zero offset with end of file: a byte-wise reader
    // would see "2" in a dirty_ratio of 20. Reading is harmless; nothing is written here.
    AgentHarness agent = new AgentHarness(shell, dir);
    List<String> expected = new java.util.ArrayList<>();
    List<String> paths = new java.util.ArrayList<>();
    for (String file :
        new String[] {"vm/dirty_ratio", "vm/dirty_background_ratio", "kernel/pid_max"}) {
      Path p = Path.of("/proc/sys", file);
      paths.add(p.toString());
      // one read(2) of 8 KiB: Files.readString would also stop after the first byte
      try (java.io.InputStream in = Files.newInputStream(p)) {
        expected.add(
            tab(
                "rw",
                p,
                new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).trim()));
      }
    }

    Result read = agent.call("read", paths.toArray(String[]::new));

    assertEquals(0, read.rc(), read.stderr());
    assertEquals(expected, read.lines());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void lastPayloadLineNeedsNoNewline(String shell, @TempDir Path dir) {
    AgentHarness agent = new AgentHarness(shell, dir);
    Path knob = agent.knob("nr_requests", "64");

    Result read = agent.callRaw("read", knob.toString());

    assertEquals(List.of(tab("rw", knob, "64")), read.lines());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void unknownVerbIsAnErrorWithStatus2(String shell, @TempDir Path dir) {
    Result result = new AgentHarness(shell, dir).call("frobnicate");

    assertEquals(2, result.rc());
    assertEquals(List.of(), result.lines());
    assertTrue(result.stderr().contains("unknown verb: frobnicate"), result.stderr());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void syncSucceedsQuietly(String shell, @TempDir Path dir) {
    Result result = new AgentHarness(shell, dir).call("sync");

    assertEquals(0, result.rc(), result.stderr());
    assertEquals(List.of(), result.lines());
  }
}
