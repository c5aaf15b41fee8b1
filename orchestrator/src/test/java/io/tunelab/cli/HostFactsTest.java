package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tunelab.agent.Facts;
import io.tunelab.knob.ReadResult;
import io.tunelab.matrix.Sizes;
import io.tunelab.testing.Cli;
import io.tunelab.testing.RepoFiles;
import io.tunelab.view.HostDescription;
import io.tunelab.view.HostFactsOutput;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tunelab hosts facts} without a host: what it reads, how it prints it, and the bad usage
 * refused before any connection. HostsFactsTest in io.tunelab.it asks the real local host.
 */
class HostFactsTest {
  @TempDir Path dir;

  private static final Facts FACTS =
      new Facts(
          linked(
              "kernel_release", "6.1.0-18-amd64",
              "boot_id", "b1",
              "hostname", "srv1",
              "cpus", "8",
              "mem_kb", "16314124",
              "uid", "0",
              "cpu_model", "AMD EPYC 7302 16-Core Processor",
              "cpufreq_governor", "performance",
              "kernel_config",
                  "sha256:5d2c8a0e0b4b36c4b1f0e1a4a0c8f6f2e9d5b7c3a1e4f6d8b0c2e4a6f8d0b2c4"),
          linked("sda", "mq-deadline kyber [bfq] none", "nvme0n1", "[none] mq-deadline"),
          linked("sda", "ST2000DM008-2FR1", "nvme0n1", "Samsung SSD 970 EVO Plus 500GB"),
          linked("sda", "ATA"));

  /** A host whose devices are loop devices, without cpufreq or a kernel config in /boot. */
  private static final Facts BARE =
      new Facts(
          linked("kernel_release", "6.18.44", "cpus", "2", "mem_kb", "4194304", "hostname", "vm"),
          linked("loop0", "[none] mq-deadline"));

  private static Map<String, String> linked(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  private static HostDescription srv1() {
    Map<String, ReadResult> read = new LinkedHashMap<>();
    String[][] files = {
      {"/sys/block/sda/size", "3907029168"},
      {"/sys/block/sda/queue/rotational", "1"},
      {"/sys/block/sda/queue/read_ahead_kb", "128"},
      {"/sys/block/sda/queue/max_sectors_kb", "1280"},
      {"/sys/block/sda/queue/max_hw_sectors_kb", "32767"},
      {"/sys/block/nvme0n1/size", "1000215216"},
      {"/sys/block/nvme0n1/queue/rotational", "0"},
      {"/sys/block/nvme0n1/queue/read_ahead_kb", "128"},
      {"/sys/block/nvme0n1/queue/max_sectors_kb", "128"},
      {"/proc/sys/vm/dirty_ratio", "20"},
      {"/proc/sys/vm/dirty_background_ratio", "10"},
      {"/proc/sys/vm/dirty_bytes", "0"},
      {"/proc/sys/vm/dirty_background_bytes", "0"},
      {"/proc/sys/vm/dirty_expire_centisecs", "3000"},
      {"/proc/sys/vm/dirty_writeback_centisecs", "500"},
    };
    for (String[] f : files) {
      read.put(f[0], new ReadResult(ReadResult.State.RW, f[1] + "\n"));
    }
    read.put("/sys/block/nvme0n1/queue/max_hw_sectors_kb", ReadResult.missing());
    return HostDescriptions.of("srv1", FACTS, read);
  }

  @Test
  void itReadsEachDevicesQueueAndTheVmDirtySettings() {
    List<String> paths = HostDescriptions.paths(FACTS);

    assertEquals(2 * 5 + 6, paths.size());
    assertEquals("/sys/block/sda/size", paths.get(0));
    assertEquals("/sys/block/sda/queue/max_hw_sectors_kb", paths.get(4));
    assertEquals("/proc/sys/vm/dirty_writeback_centisecs", paths.get(paths.size() - 1));
  }

  @Test
  void theTableShowsTheCurrentSchedulerInBrackets() {
    assertEquals(
        """
        host srv1: kernel 6.1.0-18-amd64, 8 CPUs, 16 GiB memory, hostname srv1
        cpu AMD EPYC 7302 16-Core Processor, cpufreq governor performance
        kernel config sha256:5d2c8a0e0b4b36c4b1f0e1a4a0c8f6f2e9d5b7c3a1e4f6d8b0c2e4a6f8d0b2c4

        DEVICE   SIZE     ROTATIONAL  SCHEDULER                     READ_AHEAD_KB  MAX_SECTORS_KB  MAX_HW_SECTORS_KB  MODEL
        sda      1.8 TiB  yes         mq-deadline kyber [bfq] none  128            1280            32767              ATA ST2000DM008-2FR1
        nvme0n1  477 GiB  no          [none] mq-deadline            128            128             -                  Samsung SSD 970 EVO Plus 500GB

        vm.dirty_ratio                20
        vm.dirty_background_ratio     10
        vm.dirty_bytes                0
        vm.dirty_background_bytes     0
        vm.dirty_expire_centisecs     3000
        vm.dirty_writeback_centisecs  500
        """,
        HostFactsOutput.text(List.of(srv1())));
  }

  @Test
  void aHostThatTellsNoCpuConfigOrModelsHasNoLinesOrColumnForThem() {
    Map<String, ReadResult> read = new LinkedHashMap<>();
    read.put("/sys/block/loop0/size", new ReadResult(ReadResult.State.RO, "0\n"));
    String text = HostFactsOutput.text(List.of(HostDescriptions.of("vm", BARE, read)));

    assertTrue(
        text.startsWith(
            "host vm: kernel 6.18.44, 2 CPUs, 4 GiB memory, hostname vm\n\n"
                + "DEVICE  SIZE  ROTATIONAL  SCHEDULER           READ_AHEAD_KB  MAX_SECTORS_KB"
                + "  MAX_HW_SECTORS_KB\nloop0   0 B   -           [none] mq-deadline  -"),
        text);
  }

  @Test
  void docsHostsMdShowsThisVeryTable() {
    String page = RepoFiles.read(RepoFiles.repoRoot().resolve("docs/hosts.md"));
    int start = page.indexOf("```text\nhost srv1: kernel ");
    assertTrue(start >= 0, "docs/hosts.md shows hosts facts' table");
    String shown = page.substring(start + "```text\n".length(), page.indexOf("```", start + 3));

    assertEquals(shown, HostFactsOutput.text(List.of(srv1())));
  }

  @Test
  void jsonHasNumbersTheCurrentSchedulerAndEveryHostsError() throws Exception {
    JsonNode doc =
        new ObjectMapper()
            .readTree(
                HostFactsOutput.json(
                    List.of(srv1()), Map.of("srv2", "host srv2: cannot connect to …")));

    assertEquals(2, doc.size());
    JsonNode srv1 = doc.get(0);
    assertEquals("6.1.0-18-amd64", srv1.get("kernel_release").asText());
    assertEquals(8, srv1.get("cpus").asInt());
    assertEquals(16314124, srv1.get("mem_kb").asLong());
    assertEquals("AMD EPYC 7302 16-Core Processor", srv1.get("cpu_model").asText());
    assertEquals("performance", srv1.get("cpufreq_governor").asText());
    assertTrue(srv1.get("kernel_config").asText().startsWith("sha256:5d2c"), srv1.toString());
    JsonNode sda = srv1.get("block_devices").get(0);
    assertEquals("sda", sda.get("name").asText());
    assertEquals(3907029168L * 512, sda.get("size_bytes").asLong());
    assertTrue(sda.get("rotational").asBoolean());
    assertEquals("bfq", sda.get("scheduler").asText());
    assertEquals("[\"mq-deadline\",\"kyber\",\"bfq\",\"none\"]", sda.get("schedulers").toString());
    assertEquals(32767, sda.get("max_hw_sectors_kb").asInt());
    assertEquals("ST2000DM008-2FR1", sda.get("model").asText());
    assertEquals("ATA", sda.get("vendor").asText());
    assertTrue(srv1.get("block_devices").get(1).get("vendor").isNull());
    assertTrue(srv1.get("block_devices").get(1).get("max_hw_sectors_kb").isNull());
    assertEquals(20, srv1.get("vm").get("dirty_ratio").asInt());
    assertEquals(500, srv1.get("vm").get("dirty_writeback_centisecs").asInt());
    assertEquals("srv2", doc.get(1).get("host").asText());
    assertEquals("host srv2: cannot connect to …", doc.get(1).get("error").asText());
  }

  @Test
  void sizesAreInBinaryUnits() {
    assertEquals("0 B", Sizes.show(0));
    assertEquals("512 B", Sizes.show(512));
    assertEquals("256 GiB", Sizes.show(256L << 30));
    assertEquals("3.8 GiB", Sizes.show(4080218931L));
    assertEquals("64 MiB", Sizes.show(64L << 20));
  }

  @Test
  void anUnknownHostOrFormatIsBadUsageBeforeAnyConnection() throws Exception {
    Path inventory = dir.resolve("hosts.yaml");
    Files.writeString(inventory, "hosts:\n  srv1: {address: 192.0.2.10}\n");

    Cli.Result r = Cli.tunelab("hosts", "facts", "--hosts", inventory.toString(), "srv3");
    assertEquals(2, r.code(), r.all());
    assertEquals(
        "tunelab: host srv3: unknown host; it is not in "
            + inventory
            + " (hosts: srv1, local); did you mean 'srv1'?\n",
        r.err());

    r = Cli.tunelab("hosts", "facts", "srv1");
    assertEquals(2, r.code(), r.all());
    assertTrue(r.err().contains("no inventory was given"), r.err());

    r = Cli.tunelab("hosts", "facts", "--format", "xml", "local");
    assertEquals(2, r.code(), r.all());
    assertEquals("tunelab: unknown format xml (expected table or json)\n", r.err());
    assertEquals("", r.out());
  }
}
