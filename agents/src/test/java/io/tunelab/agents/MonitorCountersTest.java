package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.tab;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import io.tunelab.agents.AgentHarness.Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A vmstat, mpstat or iostat monitor comes back with the kernel's counters from its start and from
 * the trial's stop ({@code stat} rows): the cpu line of /proc/stat, or its devices' lines of
 * /proc/diskstats; any other command with none. The tools need not be installed: the counters are
 * the agent's own reads.
 */
class MonitorCountersTest {

  private static List<String> monitor(String name, String... argv) {
    List<String> lines = new ArrayList<>(List.of(tab("monitor", name)));
    for (String a : argv) {
      lines.add(tab("arg", a));
    }
    return lines;
  }

  /** The {@code stat} rows of monitor {@code name}, without their kind and name. */
  private static List<String> stat(Result r, String name) {
    return r.rest("stat").stream()
        .filter(l -> l.startsWith(name + "\t"))
        .map(l -> l.substring(name.length() + 1))
        .toList();
  }

  /** A whole device of /proc/diskstats (one with /sys/block/NAME). */
  private static String aDevice() throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc/diskstats"))) {
      String name = line.trim().split("\\s+")[2];
      if (Files.isDirectory(Path.of("/sys/block", name))) {
        return name;
      }
    }
    throw new IllegalStateException("no block device in /proc/diskstats");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void monitorsBringTheirCountersFromStartAndStop(String shell, @TempDir Path dir)
      throws Exception {
    String device = aDevice();
    AgentHarness agent = new AgentHarness(shell, dir);
    List<String> payload = new ArrayList<>(List.of(tab("job", "w.0"), tab("arg", "sleep")));
    payload.add(tab("arg", "0.3"));
    payload.addAll(monitor("vmstat@a", "env", "LC_ALL=C", "vmstat", "-n", "1"));
    payload.addAll(monitor("iostat@a", "env", "LC_ALL=C", "iostat", "-dxky", device, "1"));
    payload.addAll(monitor("iostat@b", "env", "LC_ALL=C", "iostat", "-dxky", "1"));
    payload.addAll(monitor("other@a", "sleep", "5"));
    try (Server server = agent.serve()) {
      long before = System.currentTimeMillis() * 1_000_000L;
      Result run = server.request("run", payload.toArray(String[]::new));

      assertEquals(0, run.rc(), run.stderr());
      List<String> cpu = stat(run, "vmstat@a");
      assertEquals(4, cpu.size(), run.lines().toString());
      long begin = Long.parseLong(cpu.get(0).substring("begin\t".length()));
      long end = Long.parseLong(cpu.get(2).substring("end\t".length()));
      assertTrue(begin >= before - 50_000_000L && end - begin >= 300_000_000L, cpu.toString());
      long[] first = counters(cpu.get(1), "cpu");
      long[] last = counters(cpu.get(3), "cpu");
      assertTrue(first.length >= 4, cpu.get(1));
      long ticks = 0;
      for (int i = 0; i < first.length; i++) {
        assertTrue(last[i] >= first[i], cpu.toString());
        ticks += last[i] - first[i];
      }
      assertTrue(ticks > 0, "no CPU time passed: " + cpu);

      List<String> disk = stat(run, "iostat@a");
      assertEquals(4, disk.size(), run.lines().toString());
      assertTrue(
          disk.get(0).startsWith("begin\t") && disk.get(2).startsWith("end\t"), disk.toString());
      assertEquals(device, disk.get(1).split(" ")[2], disk.toString());
      assertEquals(device, disk.get(3).split(" ")[2], disk.toString());

      List<String> all = stat(run, "iostat@b");
      assertTrue(all.size() >= 4 && all.size() % 2 == 0, all.toString());
      for (String line : all) {
        if (!line.startsWith("begin\t") && !line.startsWith("end\t")) {
          String name = line.split(" ")[2];
          assertTrue(Files.isDirectory(Path.of("/sys/block", name)), "not a whole device: " + line);
        }
      }

      assertEquals(List.of(), stat(run, "other@a"), "a command that is no known tool");

      Result next =
          server.request(
              "run",
              lines(
                  List.of(tab("job", "x.0"), tab("arg", "true")),
                  monitor("other@a", "sleep", "5")));
      assertEquals(0, next.rc(), next.stderr());
      assertEquals(List.of(), next.rest("stat"), "counters of an earlier trial");
    }
  }

  private static String[] lines(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all.toArray(String[]::new);
  }

  /** The numbers after {@code label} on a /proc/stat line. */
  private static long[] counters(String line, String label) {
    String[] f = line.trim().split("\\s+");
    assertEquals(label, f[0], line);
    long[] values = new long[f.length - 1];
    for (int i = 1; i < f.length; i++) {
      values[i - 1] = Long.parseLong(f[i]);
    }
    return values;
  }
}
