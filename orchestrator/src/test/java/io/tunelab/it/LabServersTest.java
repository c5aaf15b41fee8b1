package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Integration;
import io.tunelab.testing.TestTime;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lab's iSCSI target and NFS server answer libiscsi's and libnfs's user-space clients on
 * loopback only, and {@code lab/lab down} leaves no process, mount, loop disk or state behind, also
 * after an {@code up} killed halfway.
 */
@Integration
class LabServersTest {
  private static final Path HOSTSIDE = Path.of("/var/tmp/tunelab-lab");
  private static final List<String> DAEMONS = List.of("tgtd", "ganesha.nfsd", "rpcbind");

  @TempDir Path dir;
  private Path lab;
  private Path state;
  private Set<Long> daemonsBefore;

  @BeforeEach
  void requirements() throws IOException {
    Lab.requireRoot();
    Lab.requireCommands(
        "sshd",
        "tgtd",
        "tgtadm",
        "ganesha.nfsd",
        "rpcbind",
        "rpcinfo",
        "mkfs.ext4",
        "iscsi-ls",
        "iscsi-perf",
        "iscsi-readcapacity16",
        "nfs-ls",
        "nfs-cp",
        "python3");
    lab = Lab.root().resolve("lab/lab");
    state = Lab.root().resolve("lab/state");
    daemonsBefore = pidsOf(p -> DAEMONS.contains(p.comm()));
  }

  @AfterEach
  void down() throws Exception {
    LoopDisk.sh(lab + " down --force");
  }

  @Test
  void bothServersAnswerTheUserSpaceClientsOnLoopbackOnlyAndDownLeavesNothing() throws Exception {
    LoopDisk.sh(lab + " up");
    Map<String, String> env = env();
    String url = env.get("ISCSI_URL");
    assertEquals("iscsi://127.0.0.2:3260/iqn.2026-11.io.tunelab:lab.server/1", url);
    assertEquals("127.0.0.2:3260", env.get("ISCSI_PORTAL"));
    assertEquals("nfs://127.0.0.2/var/tmp/tunelab-lab/export", env.get("NFS_URL"));

    // iSCSI: LUN 1 is the server's loop disk, and reading it reaches that disk's queue
    String capacity = LoopDisk.sh("iscsi-readcapacity16 " + url);
    assertTrue(capacity.contains("Total size:" + 256L * 1024 * 1024), capacity);
    long sectorsBefore = sectorsRead(env.get("ISCSI_DISK"));
    String perf = LoopDisk.sh("iscsi-perf -t 1 " + url);
    assertTrue(perf.contains("iops average"), perf);
    assertTrue(
        sectorsRead(env.get("ISCSI_DISK")) > sectorsBefore, "no read reached the LUN's disk");

    // NFSv3: a fresh name each time (ganesha caches entries and nfs-cp creates with O_EXCL)
    String name = "t-" + System.nanoTime() + ".txt";
    Path sent = dir.resolve("sent.txt");
    Files.writeString(sent, "over NFSv3: " + name + "\n");
    String file = "'" + env.get("NFS_URL") + "/" + name + "?version=3'";
    LoopDisk.sh("nfs-cp " + sent + " " + file);
    Path back = dir.resolve("back.txt");
    LoopDisk.sh("nfs-cp " + file + " " + back);
    assertEquals(Files.readString(sent), Files.readString(back));
    assertEquals(Files.readString(sent), Files.readString(Path.of(env.get("NFS_EXPORT"), name)));
    String mount = LoopDisk.sh("findmnt -rn -o SOURCE,FSTYPE " + env.get("NFS_EXPORT")).trim();
    assertEquals("/dev/" + env.get("NFS_DISK") + " ext4", mount);

    // every socket the lab's processes listen on is a loopback one
    Set<Long> pids = labProcesses();
    List<String> listening = new ArrayList<>();
    for (String line : LoopDisk.sh("ss -Hltnup").lines().toList()) {
      if (pids.stream().anyMatch(p -> line.contains("pid=" + p + ","))) {
        String local = line.trim().split("\\s+")[4];
        listening.add(local);
        assertTrue(
            local.startsWith("127.0.0.")
                || local.startsWith("[::1]:")
                || local.startsWith("[::ffff:127.0.0."),
            line);
      }
    }
    for (String port : List.of(":2222", ":3260", ":2049", ":111")) {
      assertTrue(listening.stream().anyMatch(l -> l.endsWith(port)), port + " in " + listening);
    }

    String status = LoopDisk.sh(lab + " status");
    assertTrue(status.contains("LUN 1 ok") && status.contains("export ok"), status);
    // status fails as soon as one server is down
    LoopDisk.sh("kill -9 $(cat " + state.resolve("server/ganesha.pid") + ")");
    Process p = new ProcessBuilder(lab.toString(), "status").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(TestTime.seconds(60), TimeUnit.SECONDS));
    assertEquals(1, p.exitValue(), out);
    assertTrue(out.contains("ganesha DOWN") && out.contains("export FAILS"), out);

    LoopDisk.sh(lab + " down");
    assertNothingLeft(pids);
  }

  @Test
  void iothreadsRestartsOnlyTheTargetAndTheHostsReadItWithIscsiRead() throws Exception {
    LoopDisk.sh(lab + " up");
    Map<String, String> env = env();
    String url = env.get("ISCSI_URL");
    String iscsiRead = env.get("ISCSI_READ") + " -b 16M " + url + " 2>/dev/null";
    assertEquals(HOSTSIDE + "/bin/iscsi-read", env.get("ISCSI_READ"));
    assertTrue(LoopDisk.sh(iscsiRead).contains("bytes 268435456 B"));
    String tgtd = Files.readString(state.resolve("server/tgtd.pid")).trim();
    String ganesha = Files.readString(state.resolve("server/ganesha.pid")).trim();

    String out = LoopDisk.sh(lab + " iothreads 2");

    String restarted = Files.readString(state.resolve("server/tgtd.pid")).trim();
    assertEquals(
        "iscsi: tgtd pid "
            + restarted
            + " restarted with 2 I/O threads (was 16);"
            + " clients lost their sessions\n",
        out);
    assertFalse(tgtd.equals(restarted), "tgtd was not restarted");
    assertEquals(ganesha, Files.readString(state.resolve("server/ganesha.pid")).trim());
    assertEquals("2", env().get("ISCSI_IOTHREADS"));
    assertEquals(Files.readString(state.resolve("env")), Files.readString(HOSTSIDE.resolve("env")));
    assertTrue(LoopDisk.sh(iscsiRead).contains("bytes 268435456 B"), "the LUN is not back");
    assertEquals(
        "iscsi: tgtd pid " + restarted + " already runs with 2 I/O threads\n",
        LoopDisk.sh(lab + " iothreads 2"));
    // up keeps the choice
    LoopDisk.sh(lab + " up");
    assertEquals(restarted, Files.readString(state.resolve("server/tgtd.pid")).trim());
    assertTrue(LoopDisk.sh(lab + " status").contains("(2 I/O threads)"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"iscsi.img", "tgtd.pid", "ganesha.pid"})
  void downCleansUpAfterAnUpKilledHalfway(String reached) throws Exception {
    Path log = dir.resolve("up.txt");
    // its own process group, so that killing it leaves the daemons it started to `down`
    Process up =
        new ProcessBuilder("setsid", lab.toString(), "up")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    Path mark = state.resolve("server").resolve(reached);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestTime.seconds(120));
    while (!Files.exists(mark) && up.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    LoopDisk.sh("kill -9 -- -" + up.pid() + " 2>/dev/null || true");
    assertTrue(up.waitFor(TestTime.seconds(10), TimeUnit.SECONDS));
    assertTrue(Files.exists(mark), "up never made " + reached + ": " + Files.readString(log));
    Set<Long> pids = labProcesses();
    assertFalse(pids.isEmpty(), "the killed up left nothing running: " + Files.readString(log));

    LoopDisk.sh(lab + " down");

    assertNothingLeft(pids);
  }

  private void assertNothingLeft(Set<Long> started) throws IOException, InterruptedException {
    Set<Long> running = pidsOf(p -> started.contains(p.pid()));
    assertEquals(Set.of(), running, "processes the lab started still run");
    assertEquals(Set.of(), labProcesses(), "processes of the lab still run");
    Set<Long> daemons = pidsOf(p -> DAEMONS.contains(p.comm()));
    daemons.removeAll(daemonsBefore);
    assertEquals(Set.of(), daemons, "a tgtd, ganesha.nfsd or rpcbind started during the test runs");
    List<String> mounts =
        Files.readAllLines(Path.of("/proc/self/mounts")).stream()
            .map(l -> l.split(" ")[1])
            .filter(m -> m.startsWith(HOSTSIDE + "/") || m.startsWith(state + "/"))
            .collect(Collectors.toList());
    assertEquals(List.of(), mounts);
    List<String> loops =
        LoopDisk.sh("losetup -a").lines().filter(l -> l.contains(state + "/")).toList();
    assertEquals(List.of(), loops);
    assertFalse(Files.exists(state), state + " is left");
    assertFalse(Files.exists(Lab.root().resolve("lab/hosts.yaml")), "lab/hosts.yaml is left");
    assertFalse(Files.exists(HOSTSIDE), HOSTSIDE + " is left");
    assertFalse(Files.exists(Path.of("/run/tgtd/socket.2222")), "tgtd's socket is left");
  }

  private Map<String, String> env() throws IOException {
    return Files.readAllLines(state.resolve("env")).stream()
        .filter(l -> l.contains("=") && !l.startsWith("#"))
        .collect(
            Collectors.toMap(
                l -> l.substring(0, l.indexOf('=')), l -> l.substring(l.indexOf('=') + 1)));
  }

  private static long sectorsRead(String disk) throws IOException {
    return Long.parseLong(
        LoopDisk.readProc(Path.of("/sys/block", disk, "stat")).trim().split("\\s+")[2]);
  }

  /** A live process (not a zombie waiting for init to reap it). */
  private record Proc(long pid, String comm, String cmdline, String environ) {}

  /** The processes the lab runs: daemons carrying its mark, and its sshd by their config. */
  private Set<Long> labProcesses() throws IOException {
    String mark = "\0TUNELAB_LAB=" + state + "\0";
    return pidsOf(
        p ->
            ("\0" + p.environ()).contains(mark)
                || (p.comm().equals("sshd") && p.cmdline().contains(state + "/")));
  }

  private static Set<Long> pidsOf(Predicate<Proc> filter) throws IOException {
    Set<Long> found = new TreeSet<>();
    long self = ProcessHandle.current().pid();
    try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
      for (Path proc : procs) {
        try {
          long pid = Long.parseLong(proc.getFileName().toString());
          String stat = Files.readString(proc.resolve("stat"));
          char runState = stat.charAt(stat.lastIndexOf(')') + 2);
          if (pid == self || runState == 'Z') {
            continue;
          }
          Proc p =
              new Proc(
                  pid,
                  Files.readString(proc.resolve("comm")).trim(),
                  read(proc.resolve("cmdline")),
                  read(proc.resolve("environ")));
          if (filter.test(p)) {
            found.add(pid);
          }
        } catch (IOException | NumberFormatException | IndexOutOfBoundsException gone) {
          // the process ended while we looked
        }
      }
    }
    return found;
  }

  private static String read(Path file) throws IOException {
    return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
  }
}
