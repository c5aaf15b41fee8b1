package io.tunelab.agents;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The host's processes as /proc shows them: the tests find what the agent started by a marker in
 * the environment (inherited by every descendant) and check that nothing of it is left.
 */
final class Procs {

  private Procs() {}

  /** A fresh {@code KEY=VALUE} environment entry to mark one test's processes. */
  static String marker(String key) {
    return key + "=" + UUID.randomUUID();
  }

  /** Live processes (not zombies) whose environment holds {@code entry}, as "PID ARGS". */
  static List<String> withEnv(String entry) {
    byte[] needle = entry.getBytes(StandardCharsets.UTF_8);
    List<String> found = new ArrayList<>();
    for (Path dir : processDirs()) {
      try {
        if (holds(Files.readAllBytes(dir.resolve("environ")), needle) && !zombie(dir)) {
          found.add(dir.getFileName() + " " + args(dir));
        }
      } catch (IOException e) {
        // gone meanwhile, or not ours to read
      }
    }
    return found;
  }

  /** The live processes (not zombies) of process group {@code pgid}. */
  static List<Long> group(long pgid) {
    List<Long> found = new ArrayList<>();
    for (Path dir : processDirs()) {
      long pid = Long.parseLong(dir.getFileName().toString());
      try {
        String[] stat = stat(pid);
        if (!stat[0].equals("Z") && stat[2].equals(Long.toString(pgid))) {
          found.add(pid);
        }
      } catch (IOException e) {
        // gone meanwhile
      }
    }
    return found;
  }

  /** Polls until none of {@code pids} runs; returns those still running then. */
  static List<Long> awaitGone(List<Long> pids, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + Tools.millis(millis) * 1_000_000;
    List<Long> left = pids.stream().filter(Procs::alive).toList();
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
      left = pids.stream().filter(Procs::alive).toList();
    }
    return left;
  }

  /** Polls until no live process holds {@code entry}; returns what is still there after that. */
  static List<String> awaitNone(String entry, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + Tools.millis(millis) * 1_000_000;
    List<String> left = withEnv(entry);
    while (!left.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
      left = withEnv(entry);
    }
    return left;
  }

  /** Polls until some live process holds {@code entry}. */
  static List<String> awaitSome(String entry, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + Tools.millis(millis) * 1_000_000;
    List<String> found = withEnv(entry);
    while (found.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
      found = withEnv(entry);
    }
    return found;
  }

  /** The fields of /proc/PID/stat after "PID (COMM) ": index 0 is the state, 2 the group. */
  static String[] stat(long pid) throws IOException {
    String line = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    return line.substring(line.lastIndexOf(") ") + 2).trim().split(" ");
  }

  /** Whether pid runs (exists and is not a zombie). */
  static boolean alive(long pid) {
    try {
      return !stat(pid)[0].equals("Z");
    } catch (IOException e) {
      return false;
    }
  }

  /** Sends a signal with kill(1): {@code target} is a pid, or "-PGID" for a group. */
  static void kill(String signal, String target) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-s", signal, "--", target).inheritIO().start();
    if (kill.waitFor() != 0) {
      throw new IllegalStateException("kill -s " + signal + " " + target + " failed");
    }
  }

  /** The directories /proc has for processes, /proc/PID. */
  private static List<Path> processDirs() {
    try (Stream<Path> dirs = Files.list(Path.of("/proc"))) {
      return dirs.filter(d -> d.getFileName().toString().chars().allMatch(Character::isDigit))
          .toList();
    } catch (IOException e) {
      throw new IllegalStateException("cannot list /proc", e);
    }
  }

  private static boolean zombie(Path dir) throws IOException {
    String line = Files.readString(dir.resolve("stat"));
    return line.substring(line.lastIndexOf(") ") + 2).startsWith("Z");
  }

  private static String args(Path dir) throws IOException {
    return new String(Files.readAllBytes(dir.resolve("cmdline")), StandardCharsets.UTF_8)
        .replace('\0', ' ')
        .trim();
  }

  private static boolean holds(byte[] environ, byte[] needle) {
    int start = 0;
    for (int i = 0; i <= environ.length; i++) {
      if (i == environ.length || environ[i] == 0) {
        if (i - start == needle.length) {
          boolean same = true;
          for (int k = 0; k < needle.length && same; k++) {
            same = environ[start + k] == needle[k];
          }
          if (same) {
            return true;
          }
        }
        start = i + 1;
      }
    }
    return false;
  }
}
