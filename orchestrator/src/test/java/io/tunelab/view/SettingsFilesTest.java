package io.tunelab.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.store.CellSettings;
import io.tunelab.store.CellSettings.Setting;
import io.tunelab.testing.GoldenFiles;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsFilesTest {
  /**
   * A search's winner on two hosts: a sysctl, a bdi file and three queue attributes (the scheduler
   * among them) on the client's disk with a WWID, one on the server's disk without a stable name, a
   * knob left at the host's value, and a kernel axis.
   */
  private static CellSettings winner() {
    Map<String, String> params = new LinkedHashMap<>();
    params.put("client.kernel", "6.1.0-47-amd64");
    params.put("client.block.${disk}.read_ahead_kb", "2048");
    params.put("client.block.${disk}.scheduler", "mq-deadline");
    params.put("client.block.${disk}.nr_requests", "64");
    params.put("client.vm.dirty_ratio", "10");
    params.put("client.bdi.${bdi}.min_ratio", "5");
    params.put("server.block.vdb.max_sectors_kb", "default");
    params.put("server.block.vdc.read_ahead_kb", "512");
    params.put("threads", "yes");
    return new CellSettings(
        7,
        "iscsi-race",
        12,
        "client:ra=2M",
        true,
        params,
        List.of(
            new Setting("client", "c1", "bdi.8:16.min_ratio", "/sys/class/bdi/8:16/min_ratio", "5"),
            new Setting(
                "client", "c1", "block.sdb.nr_requests", "/sys/block/sdb/queue/nr_requests", "64"),
            new Setting(
                "client",
                "c1",
                "block.sdb.read_ahead_kb",
                "/sys/block/sdb/queue/read_ahead_kb",
                "2048"),
            new Setting(
                "client",
                "c1",
                "block.sdb.scheduler",
                "/sys/block/sdb/queue/scheduler",
                "mq-deadline"),
            new Setting("client", "c1", "vm.dirty_ratio", "/proc/sys/vm/dirty_ratio", "10"),
            new Setting(
                "server",
                "s1",
                "block.vdb.max_sectors_kb",
                "/sys/block/vdb/queue/max_sectors_kb",
                "default"),
            new Setting(
                "server",
                "s1",
                "block.vdc.read_ahead_kb",
                "/sys/block/vdc/queue/read_ahead_kb",
                "512")),
        Map.of(
            "c1",
            Map.of("block.sdb.wwid", "naa.6001405abcdef", "block.sdb.model", "VIRTUAL-DISK"),
            "s1",
            Map.of()));
  }

  @Test
  void everyFormatOfAWinnerOnTwoHosts() {
    StringBuilder out = new StringBuilder();
    for (SettingsFiles.Format f : SettingsFiles.Format.values()) {
      out.append("=== ").append(f).append('\n').append(SettingsFiles.render(winner(), f));
    }
    GoldenFiles.assertMatches("view/settings-files.txt", out.toString());
  }

  @Test
  void aDiskWithOnlyASerialIsMatchedByIt() {
    CellSettings cell =
        new CellSettings(
            1,
            "x",
            1,
            "ra=128",
            false,
            Map.of("local.block.vdb.read_ahead_kb", "128"),
            List.of(
                new Setting(
                    "local",
                    "local",
                    "block.vdb.read_ahead_kb",
                    "/sys/block/vdb/queue/read_ahead_kb",
                    "128")),
            Map.of("local", Map.of("block.vdb.serial", "tunelab-disk1")));

    String udev = SettingsFiles.render(cell, SettingsFiles.Format.UDEV);

    assertTrue(
        udev.contains(
            "ACTION==\"add|change\", SUBSYSTEM==\"block\", ATTRS{serial}==\"tunelab-disk1\","
                + " ATTR{queue/read_ahead_kb}=\"128\"\n"),
        udev);
  }

  @Test
  void formatsAreNamedInLowerCase() {
    assertEquals(SettingsFiles.Format.TUNED, SettingsFiles.Format.of("tuned"));
    assertNull(SettingsFiles.Format.of("TUNED"));
  }
}
