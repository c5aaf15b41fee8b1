package io.tunelab.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.testing.TestTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KnownHostsFileTest {
  @TempDir Path dir;

  @Test
  void concurrentFirstContactsEachGetALineOfTheirOwn() throws Exception {
    Path file = dir.resolve("ssh/known_hosts");
    int hosts = 64;
    ExecutorService pool = Executors.newFixedThreadPool(16);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> writes = new ArrayList<>();
    Set<String> expected = new HashSet<>();
    for (int i = 0; i < hosts; i++) {
      // As long as a real entry, so that interleaved writes would show.
      String line = "[10.0.0." + i + "]:22 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA" + "x".repeat(400);
      expected.add(line);
      writes.add(
          pool.submit(
              () -> {
                start.await();
                KnownHostsFile.append(file, line);
                return null;
              }));
    }
    start.countDown();
    for (Future<?> w : writes) {
      w.get(TestTime.seconds(30), TimeUnit.SECONDS);
    }
    pool.shutdown();

    List<String> lines = Files.readAllLines(file);
    assertEquals(hosts, lines.size());
    assertEquals(expected, new HashSet<>(lines));
  }

  @Test
  void aFileWithoutAFinalNewlineGetsOneBeforeTheNewEntry() throws Exception {
    Path file = dir.resolve("known_hosts");
    Files.writeString(file, "old-host ssh-ed25519 AAAA");

    KnownHostsFile.append(file, "new-host ssh-ed25519 BBBB");

    assertEquals("old-host ssh-ed25519 AAAA\nnew-host ssh-ed25519 BBBB\n", Files.readString(file));
  }
}
