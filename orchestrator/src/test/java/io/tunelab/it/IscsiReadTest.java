package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Integration;
import io.tunelab.testing.TestTime;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * lab/iscsi-read reads every byte of a LUN in order, in commands of BS, prints its four metrics,
 * and says in one line what failed. It runs against a tgtd of its own (portal 127.0.0.9:3261,
 * management port 3261) over a loop disk of its own, so the lab's target is left alone.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Integration
class IscsiReadTest {
  private static final String PORT = "3261";
  private static final String PORTAL = "127.0.0.9:" + PORT;
  private static final String IQN = "iqn.2026-12.io.tunelab:test";
  private static final String URL = "iscsi://" + PORTAL + "/" + IQN + "/1";
  private static final int LUN_BYTES = 32 << 20;
  // tgtd and tgtadm live in /usr/sbin, which the test's PATH may lack.
  private static final String SBIN = "PATH=$PATH:/usr/sbin:/sbin ";

  private Path dir;
  private LoopDisk disk;
  private Process tgtd;
  private byte[] image;

  @BeforeAll
  void startTarget() throws Exception {
    Lab.requireRoot();
    Lab.requireCommands("tgtd", "tgtadm", "python3");
    dir = Files.createTempDirectory("iscsi-read-test");
    Path file = dir.resolve("lun.img");
    image = pattern();
    Files.write(file, image);
    disk = LoopDisk.attach(file);
    tgtd =
        new ProcessBuilder(
                "sh", "-c", SBIN + "exec tgtd -f -C " + PORT + " --iscsi portal=" + PORTAL)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("tgtd.log").toFile())
            .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestTime.seconds(10));
    while (!answers("--op show --mode system")) {
      assertTrue(tgtd.isAlive(), "tgtd exited: " + Files.readString(dir.resolve("tgtd.log")));
      assertTrue(System.nanoTime() < deadline, "tgtd's management port never answered");
      Thread.sleep(100);
    }
    tgtadm("--op new --mode target --tid 1 -T " + IQN);
    tgtadm("--op new --mode logicalunit --tid 1 --lun 1 -b /dev/" + disk.dev);
    tgtadm("--op bind --mode target --tid 1 -I 127.0.0.0/8");
  }

  @AfterAll
  void stopTarget() throws Exception {
    try {
      if (tgtd != null) {
        // tgtd ignores TERM while it has targets: remove them and shut it down as tgt's scripts do
        answers("--op delete --mode target --tid 1 --force");
        answers("--op delete --mode system");
        if (!tgtd.waitFor(TestTime.seconds(15), TimeUnit.SECONDS)) {
          tgtd.destroyForcibly();
          tgtd.waitFor(TestTime.seconds(10), TimeUnit.SECONDS);
        }
        Files.deleteIfExists(Path.of("/run/tgtd/socket." + PORT));
        Files.deleteIfExists(Path.of("/run/tgtd/socket." + PORT + ".lock"));
      }
    } finally {
      if (disk != null) {
        disk.close();
      }
      if (dir != null) {
        try (Stream<Path> files = Files.walk(dir)) {
          for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
            Files.delete(p);
          }
        }
      }
    }
  }

  @ParameterizedTest(name = "bs {0}, total {1}")
  @CsvSource({
    "1M,    , 33554432, 32",
    "64M,   , 33554432, 1",
    "16M, 20M, 20971520, 2",
    "3M,  10M, 10485760, 4",
    "512, 64K, 65536,   128"
  })
  void readsTheLunInOrderInCommandsOfBs(String bs, String total, long bytes, int commands)
      throws Exception {
    Path out = dir.resolve("out");
    List<String> args = new ArrayList<>(List.of("-b", bs, "-o", out.toString()));
    if (total != null) {
      args.addAll(List.of("-n", total));
    }
    args.add(URL);

    Run run = iscsiRead(args);

    assertEquals(0, run.exit(), run.err());
    Map<String, String> units = new LinkedHashMap<>();
    Map<String, Double> values = new LinkedHashMap<>();
    for (String line : run.out()) {
      String[] f = line.split(" ");
      assertEquals(3, f.length, line);
      units.put(f[0], f[2]);
      values.put(f[0], Double.parseDouble(f[1]));
    }
    assertEquals(Map.of("seconds", "s", "bytes", "B", "mib_per_s", "MiB/s", "iops", "IO/s"), units);
    assertEquals(List.of("seconds", "bytes", "mib_per_s", "iops"), List.copyOf(units.keySet()));
    double seconds = values.get("seconds");
    assertTrue(seconds > 0, run.out().toString());
    assertEquals(bytes, values.get("bytes"));
    assertEquals(commands, values.get("iops") * seconds, 0.01);
    assertEquals(
        bytes / seconds / 1048576, values.get("mib_per_s"), 0.001 * values.get("mib_per_s"));
    assertTrue(run.err().startsWith(commands + " READ(16) command"), run.err());

    byte[] read = Files.readAllBytes(out);
    assertEquals(bytes, read.length);
    int wrong = Arrays.mismatch(read, 0, read.length, image, 0, read.length);
    assertEquals(-1, wrong, "the data read differs from the disk's at byte " + wrong);
  }

  /** tgt pings an idle connection (NOP-In) and drops it when the pings go unanswered. */
  @Test
  void answersTheTargetsPingsBetweenCommands() throws Exception {
    tgtadm("--op update --mode target --tid 1 -n nop_interval -v 1");
    tgtadm("--op update --mode target --tid 1 -n nop_count -v 10");
    Path fifo = dir.resolve("fifo");
    try {
      LoopDisk.sh("mkfifo " + fifo);
      // iscsi-read blocks writing its first block to the fifo while nobody reads it
      CompletableFuture<Run> run =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return iscsiRead(List.of("-b", "1M", "-n", "4M", "-o", fifo.toString(), URL));
                } catch (IOException | InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              });
      byte[] read;
      try (InputStream in = Files.newInputStream(fifo)) {
        byte[] first = in.readNBytes(4096);
        Thread.sleep(3000);
        byte[] rest = in.readAllBytes();
        read = Arrays.copyOf(first, first.length + rest.length);
        System.arraycopy(rest, 0, read, first.length, rest.length);
      }
      Run done = run.get(TestTime.seconds(60), TimeUnit.SECONDS);
      assertEquals(0, done.exit(), done.err());
      assertTrue(done.err().contains("4194304 bytes"), done.err());
      assertEquals(-1, Arrays.mismatch(read, 0, 4 << 20, image, 0, 4 << 20));
    } finally {
      tgtadm("--op update --mode target --tid 1 -n nop_interval -v 0");
      Files.deleteIfExists(fifo);
    }
  }

  @Test
  void aWrongTargetIqnIsARejectedLogin() throws Exception {
    assertFails(
        List.of("iscsi://" + PORTAL + "/iqn.2026-12.io.tunelab:nope/1"),
        "iscsi-read: login rejected by iqn.2026-12.io.tunelab:nope: status class 2 detail 0x03"
            + " (target not found (no such target IQN))");
  }

  @Test
  void aWrongLunIsACheckCondition() throws Exception {
    assertFails(
        List.of("iscsi://" + PORTAL + "/" + IQN + "/7"),
        "iscsi-read: READ CAPACITY(16) of LUN 7: CHECK CONDITION, sense key 0x5 ILLEGAL REQUEST,"
            + " ASC 0x25 ASCQ 0x00 (logical unit not supported)");
  }

  @Test
  void aClosedPortIsARefusedConnection() throws Exception {
    assertFails(
        List.of("iscsi://127.0.0.9:3262/" + IQN + "/1"),
        "iscsi-read: cannot connect to 127.0.0.9:3262: connection refused");
  }

  @Test
  void aSilentTargetIsATimeout() throws Exception {
    // the kernel completes the connection; nobody ever answers on it
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.9"))) {
      String where = "127.0.0.9:" + silent.getLocalPort();
      assertFails(
          List.of("-t", "1", "iscsi://" + where + "/" + IQN + "/1"),
          "iscsi-read: timeout: no answer from "
              + where
              + " within 1 s while iscsi-read waited for a login response");
    }
  }

  @Test
  void aTotalBeyondTheLunNamesItsSize() throws Exception {
    assertFails(
        List.of("-n", "64M", URL),
        "iscsi-read: total 67108864 bytes (64 MiB) is beyond the end of LUN 1,"
            + " 33554432 bytes (32 MiB)");
    assertFails(
        List.of("-b", "1000", URL),
        "iscsi-read: block size 1000 is not a multiple of LUN 1's 512-byte blocks");
  }

  @Test
  void badArgumentsExit2() throws Exception {
    Run run = iscsiRead(List.of("-b", "1x", URL));
    assertEquals(2, run.exit(), run.err());
    assertTrue(run.err().contains("'1x' is not a size"), run.err());
    run = iscsiRead(List.of("http://" + PORTAL));
    assertEquals(2, run.exit(), run.err());
    assertTrue(run.err().contains("is not an iSCSI URL"), run.err());
  }

  private void assertFails(List<String> args, String message) throws Exception {
    Run run = iscsiRead(args);
    assertEquals(1, run.exit(), run.err());
    assertEquals(List.of(), run.out());
    assertEquals(message + "\n", run.err());
  }

  private record Run(int exit, List<String> out, String err) {}

  private Run iscsiRead(List<String> args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Lab.root().resolve("lab/iscsi-read").toString());
    command.addAll(args);
    Path out = Files.createTempFile(dir, "stdout", ".txt");
    Path err = Files.createTempFile(dir, "stderr", ".txt");
    try {
      Process p =
          new ProcessBuilder(command)
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      assertTrue(
          p.waitFor(TestTime.seconds(120), TimeUnit.SECONDS), "iscsi-read " + args + " still runs");
      return new Run(
          p.exitValue(), Files.readAllLines(out), Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.delete(out);
      Files.delete(err);
    }
  }

  /** Each 512-byte sector holds its LBA, 64 times: a block read from the wrong place shows. */
  private static byte[] pattern() {
    ByteBuffer b = ByteBuffer.allocate(LUN_BYTES);
    while (b.hasRemaining()) {
      b.putLong((long) b.position() / 512);
    }
    return b.array();
  }

  private void tgtadm(String args) throws IOException, InterruptedException {
    LoopDisk.sh(SBIN + "timeout 10 tgtadm -C " + PORT + " --lld iscsi " + args);
  }

  private boolean answers(String args) throws InterruptedException {
    try {
      tgtadm(args);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
