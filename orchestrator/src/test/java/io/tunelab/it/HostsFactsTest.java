package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import io.tunelab.testing.TestTime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code tunelab hosts facts} on this machine, as root: what it prints is what the kernel shows in
 * /proc and /sys, and it only reads (no journal, no agent left behind). Other tests may change
 * knobs meanwhile, so values are compared only where they were the same before and after.
 */
@Integration
class HostsFactsTest {
  private static final List<String> VM =
      List.of(
          "dirty_ratio",
          "dirty_background_ratio",
          "dirty_bytes",
          "dirty_background_bytes",
          "dirty_expire_centisecs",
          "dirty_writeback_centisecs");

  private static final List<String> QUEUE =
      List.of("scheduler", "rotational", "read_ahead_kb", "max_sectors_kb", "max_hw_sectors_kb");

  /** Every file hosts facts shows, path to content. */
  private static Map<String, String> snapshot() throws IOException {
    Map<String, String> files = new TreeMap<>();
    for (String v : VM) {
      files.put("vm/" + v, read(Path.of("/proc/sys/vm", v)));
    }
    try (Stream<Path> devices = Files.list(Path.of("/sys/block"))) {
      for (Path dev : devices.toList()) {
        if (Files.exists(dev.resolve("queue/scheduler"))) {
          for (String q : QUEUE) {
            files.put(dev.getFileName() + "/" + q, read(dev.resolve("queue").resolve(q)));
          }
        }
      }
    }
    return files;
  }

  private static String read(Path p) {
    try {
      // Not Files.readString: on a sysctl file it returns only the first byte ("2" of "20").
      return String.join("\n", Files.readAllLines(p)).trim();
    } catch (IOException e) {
      return null;
    }
  }

  @Test
  void theLocalHostsFactsAreWhatTheKernelShowsAndNothingIsWritten() throws Exception {
    Lab.requireRoot();
    // A test of another area may set a knob and put it back while this one reads: a value that
    // was the same before and after can still have been different in between, and that round
    // shows it as a mismatch. Asked again until a round has none, up to the deadline.
    List<String> mismatches = new ArrayList<>();
    boolean agreed =
        TestTime.poll(
            Duration.ofSeconds(60),
            Duration.ofMillis(500),
            () -> {
              mismatches.clear();
              mismatches.addAll(askAndCompare());
              return mismatches.isEmpty();
            });
    assertTrue(agreed, "hosts facts differ from the kernel in every round: " + mismatches);
  }

  /**
   * Asks for the facts and asserts what no other test changes; returns where a value differs from
   * the kernel's, as "FILE: facts X, kernel Y".
   */
  private static List<String> askAndCompare() throws Exception {
    Map<String, String> before = snapshot();

    Cli.Result table = Cli.tunelab("hosts", "facts");
    Cli.Result json = Cli.tunelab("hosts", "facts", "--format", "json", "local");

    Map<String, String> after = snapshot();
    assertEquals(0, table.code(), table.all());
    assertEquals(0, json.code(), json.all());
    Map<String, String> stable = new HashMap<>();
    before.forEach(
        (k, v) -> {
          if (v != null && v.equals(after.get(k))) {
            stable.put(k, v);
          }
        });

    String release = read(Path.of("/proc/sys/kernel/osrelease"));
    assertTrue(table.out().startsWith("host local: kernel " + release + ", "), table.out());
    assertTrue(table.out().contains("\nDEVICE  "), table.out());
    JsonNode host = new ObjectMapper().readTree(json.out()).get(0);
    assertEquals("local", host.get("host").asText());
    assertEquals(release, host.get("kernel_release").asText());
    assertEquals(read(Path.of("/proc/sys/kernel/random/boot_id")), host.get("boot_id").asText());
    assertEquals(read(Path.of("/proc/cmdline")), host.get("cmdline").asText().trim());
    assertTrue(host.get("cpus").asInt() >= 1, host.toString());
    String memTotal =
        Files.readAllLines(Path.of("/proc/meminfo")).stream()
            .filter(l -> l.startsWith("MemTotal:"))
            .findFirst()
            .orElseThrow()
            .replaceAll("[^0-9]", "");
    assertEquals(Long.parseLong(memTotal), host.get("mem_kb").asLong());
    Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
        .filter(l -> l.startsWith("model name"))
        .findFirst()
        .ifPresent(
            l ->
                assertEquals(
                    l.substring(l.indexOf(':') + 1).strip(), host.get("cpu_model").asText()));

    List<String> mismatches = new ArrayList<>();
    for (String v : VM) {
      if (stable.containsKey("vm/" + v)) {
        differs(mismatches, "vm/" + v, stable.get("vm/" + v), host.get("vm").get(v).asText());
        assertTrue(table.out().contains("\nvm." + v + " "), table.out());
      }
    }
    Map<String, JsonNode> devices = new HashMap<>();
    host.get("block_devices").forEach(d -> devices.put(d.get("name").asText(), d));
    assertFalse(devices.isEmpty(), host.toString());
    for (String key : stable.keySet()) {
      if (key.startsWith("vm/")) {
        continue;
      }
      String dev = key.substring(0, key.indexOf('/'));
      String file = key.substring(key.indexOf('/') + 1);
      JsonNode d = devices.get(dev);
      String value = stable.get(key);
      if (d == null) {
        // a loop device of another test, detached and attached again meanwhile
        mismatches.add(key + ": no device " + dev + " in the facts " + devices.keySet());
        continue;
      }
      switch (file) {
        case "scheduler" -> {
          String current = value.replaceAll(".*\\[(.*)\\].*", "$1");
          differs(
              mismatches,
              key,
              value.contains("[") ? current : null,
              d.get("scheduler").textValue());
          if (!table.out().contains(value)) {
            mismatches.add(key + ": the table does not show " + value);
          }
        }
        case "rotational" ->
            differs(
                mismatches,
                key,
                String.valueOf(value.equals("1")),
                String.valueOf(d.get("rotational").asBoolean()));
        default -> differs(mismatches, key, value, d.get(file).asText());
      }
    }

    // Reading needs no journal: none was started in the agent's state directory.
    String state = System.getenv("TUNELAB_STATE");
    if (state != null) {
      assertFalse(Files.exists(Path.of(state, "journal")), "a journal in " + state);
    }
    return mismatches;
  }

  private static void differs(List<String> mismatches, String file, String kernel, String facts) {
    if (!Objects.equals(kernel, facts)) {
      mismatches.add(file + ": facts " + facts + ", kernel " + kernel);
    }
  }
}
