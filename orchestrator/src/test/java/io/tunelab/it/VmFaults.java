package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.SqliteQuery;
import io.tunelab.testing.TestTime;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Faults of real machines during the iSCSI study ({@code matrices/studies/iscsi-readahead.yaml},
 * one cell of three 128 MiB reads): the client loses power and comes back with a new boot id, the
 * server hangs for 20 s. Run by {@link VmLabTest}, which holds the lab.
 */
final class VmFaults {
  private final Map<String, String> env;
  private final Path dir;

  VmFaults(Map<String, String> env, Path dir) {
    this.env = env;
    this.dir = dir;
  }

  void theClientLosesPowerMidRun() throws Exception {
    String before = VmLab.ssh("client", "cat /proc/sys/kernel/random/boot_id");
    List<String> server = serverKnobs();
    Path db = dir.resolve("power.db");
    CompletableFuture<Cli.Result> run = start(db);
    LabFaultsTest.waitForTrial(db, 2);

    VmLab.lab(2, "kill", "client");
    VmLab.lab(5, "power-cycle", "client");
    Cli.Result r = run.get(TestTime.seconds(600), TimeUnit.SECONDS);

    assertEquals(0, r.code(), () -> r.all() + kernelLogs());
    assertEquals(
        List.of("1 ok", "2 lost", "2 ok", "3 ok"),
        LabFaultsTest.attempts(db),
        () -> r.all() + kernelLogs());
    assertTrue(r.all().contains("host client rebooted (boot id " + before + " -> "), r.all());
    assertTrue(r.all().contains("host client rebooted: setting the cell up again"), r.all());
    // the LUN's knobs were set back before its logout: no warning about their paths
    assertFalse(r.all().contains("is gone; nothing to restore"), r.all());
    String after = VmLab.ssh("client", "cat /proc/sys/kernel/random/boot_id");
    assertNotEquals(before, after);
    assertEquals(
        List.of(List.of(after)),
        SqliteQuery.rows(db, "select boot_id from hosts where host = 'client'"));
    // the LUN found again after the new login, its read-ahead written again and read back
    assertEquals(
        List.of(List.of("1", "2048"), List.of("2", "2048"), List.of("3", "2048")),
        SqliteQuery.rows(
            db,
            "select t.seq, s.effective from settings s join trials t on t.id = s.trial_id"
                + " where s.host = 'client' and s.knob like 'block.%.read_ahead_kb'"
                + " order by t.seq"));
    nothingLeft(server);
  }

  void theServerHangsForTwentySecondsMidTrial() throws Exception {
    List<String> server = serverKnobs();
    Path db = dir.resolve("hang.db");
    CompletableFuture<Cli.Result> run = start(db);
    LabFaultsTest.waitForTrial(db, 2);

    VmLab.lab(1, "pause", "server");
    Thread.sleep(20_000); // the hang itself
    VmLab.lab(1, "resume", "server");
    Cli.Result r = run.get(TestTime.seconds(600), TimeUnit.SECONDS);

    assertEquals(0, r.code(), () -> r.all() + kernelLogs());
    // the trial hit ends ok after the hang, or was lost and ran again: ok exactly once
    assertEquals(
        List.of(List.of("1", "ok", "1"), List.of("2", "ok", "1"), List.of("3", "ok", "1")),
        SqliteQuery.rows(
            db,
            "select t.seq, t.status, (select count(*) from trial_attempts a where a.trial_id = t.id"
                + " and a.status = 'ok') from trials t order by t.seq"),
        () -> r.all() + kernelLogs());
    nothingLeft(server);
  }

  private CompletableFuture<Cli.Result> start(Path db) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "run",
                Lab.root().resolve("matrices/studies/iscsi-readahead.yaml").toString(),
                "--hosts",
                VmLab.inventory().toString(),
                "--db",
                db.toString()));
    for (String set :
        List.of(
            "client_host=client",
            "server_host=server",
            "portal=" + env.get("ISCSI_PORTAL"),
            "iqn=" + env.get("ISCSI_IQN"),
            "lun_disk=" + env.get("SERVER_LUN_DISK"),
            "repeat=3",
            "total=128MiB",
            "threads=2",
            "scheduler=none",
            "bs=16M",
            "case=client:ra=2M+server:ra=2M")) {
      args.add("--set");
      args.add(set);
    }
    return CompletableFuture.supplyAsync(
        () -> {
          Cli.Result r = Cli.tunelab(args.toArray(String[]::new));
          System.out.println(r.all());
          return r;
        });
  }

  /** The server's scheduler and read-ahead of the LUN's disk. */
  private List<String> serverKnobs() throws Exception {
    String knobs = "/sys/block/" + env.get("SERVER_LUN_DISK") + "/queue/";
    return List.of(
        VmLab.ssh("server", "cat " + knobs + "scheduler"),
        VmLab.ssh("server", "cat " + knobs + "read_ahead_kb"));
  }

  /**
   * The end of both guests' kernel logs, for a failure's message: a trial that failed on the iSCSI
   * path says why only there (connection errors, command timeouts, the device set offline).
   */
  private static String kernelLogs() {
    StringBuilder logs = new StringBuilder();
    for (String host : List.of("client", "server")) {
      logs.append("\n--- ").append(host).append(": dmesg | tail -n 60\n");
      try {
        logs.append(VmLab.ssh(host, "dmesg | tail -n 60"));
      } catch (Exception e) {
        logs.append(e.getMessage());
      }
    }
    return logs.toString();
  }

  /** Every knob back on the server, no session left on the client, no journal on either. */
  private void nothingLeft(List<String> server) throws Exception {
    assertEquals(server, serverKnobs());
    assertEquals("none", VmLab.ssh("client", "iscsiadm -m session >/dev/null 2>&1 || echo none"));
    for (String host : List.of("server", "client")) {
      assertEquals("", VmLab.ssh(host, "ls /run/tunelab/journal 2>/dev/null || true"), host);
    }
  }
}
