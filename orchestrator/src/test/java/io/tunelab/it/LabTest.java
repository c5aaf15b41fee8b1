package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import io.tunelab.testing.SqliteQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Two hosts over the lab's real OpenSSH sshd (lab/lab): what crosses SSH, end to end. */
@Integration
class LabTest {
  @RegisterExtension static final SshLabExtension LAB = new SshLabExtension();
  @TempDir Path dir;

  private static String serverQueue(String attr) throws Exception {
    return Files.readString(Path.of("/sys/block", LAB.env().get("SERVER_DISK"), "queue", attr))
        .trim();
  }

  private static String dirtyRatio() throws Exception {
    return LoopDisk.readProc(Path.of("/proc/sys/vm/dirty_ratio"));
  }

  private Path matrix(String workload, int repeat) throws Exception {
    Path m = dir.resolve("lab.yaml");
    Files.writeString(
        m,
        """
        name: lab-e2e
        roles: {server: server, client: client}
        matrix:
          server.block.SDISK.read_ahead_kb: [256, 4096]
          client.vm.dirty_ratio: [15, 25]
        repeat: REPEAT
        workload:
          on: server
          command: WORKLOAD
        """
            .replace("SDISK", LAB.env().get("SERVER_DISK"))
            .replace("REPEAT", Integer.toString(repeat))
            .replace("WORKLOAD", workload));
    return m;
  }

  private static String inventory() {
    return Lab.root().resolve("lab/hosts.yaml").toString();
  }

  @Test
  void settingsReachBothHostsAreReadBackAndRestored() throws Exception {
    String readAhead = serverQueue("read_ahead_kb");
    String ratio = dirtyRatio();
    Path db = dir.resolve("t.db");

    Cli.Result r =
        Cli.tunelab(
            "run",
            matrix("cat /proc/sys/vm/dirty_ratio", 1).toString(),
            "--hosts",
            inventory(),
            "--db",
            db.toString());

    assertEquals(0, r.code(), r.all());
    assertEquals(readAhead, serverQueue("read_ahead_kb"));
    assertEquals(ratio, dirtyRatio());
    assertEquals(
        List.of(
            List.of("client", "vm.dirty_ratio", "4"),
            List.of("server", "block." + LAB.env().get("SERVER_DISK") + ".read_ahead_kb", "4")),
        SqliteQuery.rows(
            db,
            "select host, knob, count(*) from settings where requested = effective"
                + " group by host, knob order by host"));
    assertEquals(
        List.of(List.of("client"), List.of("server")),
        SqliteQuery.rows(db, "select host from hosts where boot_id is not null order by host"));
  }

  @Test
  void hostsCheckRefusesAMisspeltSysctlWithTheHostsOwnNearestName() throws Exception {
    Path m = dir.resolve("typo.yaml");
    Files.writeString(
        m,
        """
        name: lab-typo
        roles: {server: server, client: client}
        matrix:
          server.net.core.somaxconm: [4096]
          client.vm.dirty_ratio: [15]
        workload:
          on: server
          command: "true"
        """);

    Cli.Result r = Cli.tunelab("hosts", "check", m.toString(), "--hosts", inventory());

    assertEquals(3, r.code(), r.all());
    assertTrue(
        r.out()
            .lines()
            .anyMatch(
                l ->
                    l.matches(
                        "server +knobs +FAIL +net\\.core\\.somaxconm: /proc/sys/net/core/somaxconm"
                            + " does not exist \\(did you mean 'net\\.core\\.somaxconn'\\?\\)")),
        r.all());
    assertTrue(r.out().lines().anyMatch(l -> l.matches("client +knobs +ok .*")), r.all());
  }

  @Test
  void aChangedHostKeyRefusesTheRunBeforeAnythingIsApplied() throws Exception {
    Path keys = dir.resolve("keys");
    Files.createDirectories(keys);
    LoopDisk.sh("ssh-keygen -q -t ed25519 -N '' -f " + keys.resolve("other"));
    String other = Files.readString(keys.resolve("other.pub")).trim();
    String impostor =
        "[127.0.0.2]:"
            + LAB.env().get("LAB_PORT")
            + " "
            + other.substring(0, other.lastIndexOf(' '));
    List<String> known =
        Files.readAllLines(Path.of(LAB.env().get("LAB_KNOWN_HOSTS"))).stream()
            .filter(l -> !l.startsWith("[127.0.0.2]"))
            .collect(Collectors.toList());
    known.add(impostor);
    Files.write(keys.resolve("known_hosts"), known);
    Path hosts = dir.resolve("hosts.yaml");
    Files.writeString(
        hosts,
        Files.readString(Path.of(inventory()))
            .replace("identity: state/id_ed25519", "identity: " + LAB.env().get("LAB_KEY"))
            .replace("known_hosts: state/known_hosts", "known_hosts: keys/known_hosts"));
    String readAhead = serverQueue("read_ahead_kb");
    String ratio = dirtyRatio();
    Path db = dir.resolve("t.db");

    Cli.Result r =
        Cli.tunelab(
            "run",
            matrix("true", 1).toString(),
            "--hosts",
            hosts.toString(),
            "--db",
            db.toString());

    assertEquals(3, r.code(), r.all());
    assertTrue(r.err().contains("host server") && r.err().contains("SHA256:"), r.err());
    assertFalse(r.err().contains("Exception"), r.err());
    assertEquals(readAhead, serverQueue("read_ahead_kb"));
    assertEquals(ratio, dirtyRatio());
    if (Files.exists(db)) {
      assertEquals(List.of(List.of("0")), SqliteQuery.rows(db, "select count(*) from experiments"));
    }
  }
}
