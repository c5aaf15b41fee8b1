package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.SqliteQuery;
import io.tunelab.testing.TestTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The kernel axis on the VM lab's client (docs/kernels.md): boots only as the plan needs, a kernel
 * that does not come back, a release not installed, a controller killed while a host boots. Run by
 * {@link VmLabTest}, which holds the lab.
 */
final class VmKernelAxis {
  private final Map<String, String> env;
  private final Path dir;

  VmKernelAxis(Map<String, String> env, Path dir) {
    this.env = env;
    this.dir = dir;
  }

  /**
   * Two kernels, two boots each: like boots (the start release is booted into too, so every
   * measured boot is a kexec and none is the one the experiment started on), interleaved in seeded
   * rounds, and the client back on its start release at the end.
   */
  void likeBootsInterleavedAndBackHome() throws Exception {
    String a = VmKernels.running();
    String b = VmKernels.other(env, a);
    Path m = VmKernels.matrix(dir, a + ", " + b, 2, "boots: 2\n");
    Path hosts = VmLab.inventory();
    Path db = dir.resolve("boots.db");
    String startBoot = VmLab.ssh("client", "cat /proc/sys/kernel/random/boot_id");

    Cli.Result plan = Cli.tunelab("plan", m.toString(), "--hosts", hosts.toString(), "--summary");
    assertTrue(plan.out().contains("like boots: the start release is booted into too"), plan.all());
    Cli.Result r =
        Cli.tunelab("run", m.toString(), "--hosts", hosts.toString(), "--db", db.toString());

    String story =
        r.all()
            + "\n--- boots:\n"
            + SqliteQuery.rows(db, "select id, release, method, reason, round, state from boots");
    assertEquals(0, r.code(), story);
    assertEquals(
        List.of(List.of("8")),
        SqliteQuery.rows(db, "select count(*) from trials where status = 'ok'"),
        story);
    // Every trial ran on its cell's release, none on the boot the experiment started on.
    assertEquals(
        List.of(),
        SqliteQuery.rows(
            db,
            "select t.id from trials t join cell_params p on p.cell_id = t.cell_id"
                + " and p.name = 'client.kernel' join trial_hosts h on h.trial_id = t.id"
                + " and h.host = 'client' where h.kernel_release <> p.value"
                + " or h.boot_id = '"
                + startBoot
                + "'"),
        story);
    // Four measured boots, two per release, each made by the inventory's method, in rounds.
    List<List<String>> kernelBoots =
        SqliteQuery.rows(
            db,
            "select release, method, round from boots where host = 'client'"
                + " and reason = 'kernel' and state = 'up' order by id");
    assertEquals(4, kernelBoots.size(), story);
    assertEquals(
        List.of(List.of("kexec")),
        SqliteQuery.rows(
            db, "select distinct method from boots where host = 'client' and reason = 'kernel'"),
        story);
    assertEquals(
        List.of(List.of("4")),
        SqliteQuery.rows(
            db, "select count(distinct boot_id) from trial_hosts where host = 'client'"),
        story);
    assertEquals(
        List.of("1", "1", "2", "2"), kernelBoots.stream().map(k -> k.get(2)).toList(), story);
    assertTrue(
        !kernelBoots.get(0).get(0).equals(kernelBoots.get(1).get(0))
            && !kernelBoots.get(2).get(0).equals(kernelBoots.get(3).get(0)),
        "each round boots both releases: " + story);
    assertEquals(a, VmKernels.running(), story);
    assertTrue(
        SqliteQuery.rows(db, "select cmdline from trial_hosts where host = 'client'").stream()
            .allMatch(row -> row.get(0).contains("console=ttyS0")),
        story);
  }

  void aKernelNotInstalledIsRefusedBeforeAnythingIsTouched() throws Exception {
    String boot = VmLab.ssh("client", "cat /proc/sys/kernel/random/boot_id");
    Path m = VmKernels.matrix(dir, "default, 6.1.0-99-notthere-amd64", 1);
    Path db = dir.resolve("missing.db");

    Cli.Result r =
        Cli.tunelab(
            "run", m.toString(), "--hosts", VmLab.inventory().toString(), "--db", db.toString());

    assertEquals(3, r.code(), r.all());
    assertTrue(
        r.err()
            .contains(
                "host client: kernel 6.1.0-99-notthere-amd64 is not installed:"
                    + " no /boot/vmlinuz-6.1.0-99-notthere-amd64"),
        r.all());
    assertTrue(
        !Files.exists(db) || SqliteQuery.rows(db, "select id from experiments").isEmpty(),
        "no experiment stored");
    assertEquals(boot, VmLab.ssh("client", "cat /proc/sys/kernel/random/boot_id"));
  }

  void aKernelThatDoesNotComeBackIsPowerCycledAndTheOthersRun() throws Exception {
    String a = VmKernels.running();
    String broken = env.get("KERNEL_BROKEN");
    // Like boots would add a kexec into the start release first; this test is about the other.
    Path m = VmKernels.matrix(dir, a + ", " + broken, 1, "boots: {like: false}\n");
    Path hosts = VmKernels.inventory(dir, "3m");
    Path db = dir.resolve("broken.db");

    Cli.Result r =
        Cli.tunelab("run", m.toString(), "--hosts", hosts.toString(), "--db", db.toString());

    assertEquals(1, r.code(), r.all());
    assertEquals(
        List.of(List.of(a, "ok", "2"), List.of(broken, "failed", "2")),
        SqliteQuery.rows(
            db,
            "select p.value, t.status, count(*) from trials t join cell_params p"
                + " on p.cell_id = t.cell_id and p.name = 'client.kernel'"
                + " group by p.value, t.status order by min(t.seq)"));
    List<List<String>> errors =
        SqliteQuery.rows(db, "select distinct error from trials where status = 'failed'");
    assertEquals(1, errors.size(), errors.toString());
    String error = errors.get(0).get(0);
    assertTrue(error.contains("did not come back on " + broken + " within 3m"), error);
    assertTrue(error.contains("power-cycled, back on " + a), error);
    assertEquals(
        List.of(List.of("power-cycle", "up")),
        SqliteQuery.rows(
            db,
            "select reason, state from boots where host = 'client' and reason = 'power-cycle'"));
    assertEquals(a, VmKernels.running());
  }

  void aControllerKilledWhileAHostBootsIsResumed() throws Exception {
    String a = VmKernels.running();
    String b = VmKernels.other(env, a);
    // Without like boots the first boot is the one into b, which the controller is killed in.
    Path m = VmKernels.matrix(dir, a + ", " + b, 1, "boots: {like: false}\n");
    Path db = dir.resolve("killed.db");
    Process p =
        Controller.tunelab(
                "run", m.toString(), "--hosts", VmLab.inventory().toString(), "--db", db.toString())
            .redirectOutput(dir.resolve("killed.out").toFile())
            .start();
    boolean booting = false;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestTime.seconds(600));
    while (!booting && p.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(200);
      booting =
          Files.exists(db)
              && !SqliteQuery.rows(db, "select 1 from boots where state = 'booting'").isEmpty();
    }
    assertTrue(booting, Files.readString(dir.resolve("killed.out")));
    p.destroyForcibly();
    assertTrue(p.waitFor(TestTime.seconds(30), TimeUnit.SECONDS));

    Cli.Result r =
        Cli.tunelab("resume", "1", "--hosts", VmLab.inventory().toString(), "--db", db.toString());

    assertEquals(0, r.code(), r.all());
    String story =
        Files.readString(dir.resolve("killed.out"))
            + "\n--- resume:\n"
            + r.all()
            + "\n--- boots:\n"
            + SqliteQuery.rows(
                db, "select id, release, method, reason, round, state, error from boots");
    // Nothing lost, nothing run twice: each trial once, with one attempt, on its cell's kernel.
    assertEquals(
        List.of(List.of("4", "4")),
        SqliteQuery.rows(
            db,
            "select count(*), count(distinct t.id) from trials t join trial_attempts a"
                + " on a.trial_id = t.id where t.status = 'ok'"),
        story);
    assertEquals(
        List.of(),
        SqliteQuery.rows(
            db,
            "select t.id from trials t join cell_params p on p.cell_id = t.cell_id"
                + " and p.name = 'client.kernel' join trial_hosts h on h.trial_id = t.id"
                + " and h.host = 'client' where h.kernel_release <> p.value"),
        story);
    // Back home: by the boot home, or by the power cycle that follows a boot home not back in
    // boot_timeout on a slow machine (the boot loader's default is the start release).
    assertEquals(
        List.of(List.of(a, "up")),
        SqliteQuery.rows(
            db,
            "select release, state from boots where host = 'client' and reason in ('home',"
                + " 'power-cycle') order by id desc limit 1"),
        story);
    assertEquals(a, VmKernels.running(), story);
  }

  /**
   * The client loses power while a trial of the other kernel runs: it comes back on the boot
   * loader's default, is booted into the cell's kernel again, and no trial is measured on the
   * default.
   */
  void anUnplannedRebootOntoTheDefaultKernelIsBootedBackIntoTheCellsOne() throws Exception {
    String a = VmKernels.running();
    String b = VmKernels.other(env, a);
    Path m = dir.resolve("unplanned.yaml");
    Files.writeString(
        m,
        """
        name: vm-unplanned-reboot
        roles: {client: client, server: server}
        matrix:
          client.kernel: [OTHER]
        repeat: 3
        workload:
          on: client
          command: sleep 6; uname -r
        """
            .replace("OTHER", b));
    Path db = dir.resolve("unplanned.db");
    Path log = dir.resolve("unplanned.out");
    Process p =
        Controller.tunelab(
                "run", m.toString(), "--hosts", VmLab.inventory().toString(), "--db", db.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    LabFaultsTest.waitForTrial(db, 2);

    VmLab.lab(2, "kill", "client");
    VmLab.lab(5, "power-cycle", "client");
    assertTrue(p.waitFor(TestTime.seconds(900), TimeUnit.SECONDS), Files.readString(log));

    String out = Files.readString(log);
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.contains("host client rebooted onto " + a + ", not " + b), out);
    assertEquals(List.of("1 ok", "2 lost", "2 ok", "3 ok"), LabFaultsTest.attempts(db), out);
    assertEquals(
        List.of(List.of(b, "3")),
        SqliteQuery.rows(
            db,
            "select h.kernel_release, count(*) from trials t join trial_hosts h"
                + " on h.trial_id = t.id and h.host = 'client' where t.status = 'ok'"
                + " group by h.kernel_release"));
    assertEquals(
        List.of(
            List.of("start", a, "up"),
            List.of("kernel", b, "up"),
            List.of("kernel", b, "up"),
            List.of("home", a, "up")),
        SqliteQuery.rows(
            db, "select reason, release, state from boots where host = 'client' order by id"));
    assertEquals(a, VmKernels.running());
  }
}
