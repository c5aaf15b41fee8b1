package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.fail;

import io.tunelab.testing.TestTime;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;

/**
 * The VM lab ({@code lab/vm}): two QEMU guests as a real server and client, for the tests that need
 * two kernels. Booting them takes minutes (the first time also the image build), so the tests run
 * when {@code TUNELAB_VM_LAB=1} or {@code CI=true}; under CI a lab that cannot start fails.
 */
final class VmLab {
  /** A first {@code up} builds the image: mmdebstrap, ext4 and GRUB's one-shot guest. */
  private static final long UP_MINUTES = 30;

  private VmLab() {}

  private static boolean ci() {
    return "true".equals(System.getenv("CI"));
  }

  /** Skips (or under CI fails) unless the VM lab's tests are asked for and can run here. */
  static void require() throws IOException {
    String asked = System.getenv("TUNELAB_VM_LAB");
    if (!ci() && !"1".equals(asked) && !"keep".equals(asked)) {
      Assumptions.abort("the VM lab's tests boot two QEMU guests: set TUNELAB_VM_LAB=1");
    }
    Lab.requireRoot();
    Lab.requireCommands("qemu-system-x86_64", "qemu-img", "mmdebstrap", "sfdisk", "ssh");
  }

  /** Starts the VM lab ({@code lab/vm up}) and returns its env. */
  static Map<String, String> up() throws Exception {
    require();
    String out = run(UP_MINUTES, "up");
    if (out == null) {
      return env();
    }
    String why = "lab/vm up failed:\n" + out;
    if (ci()) {
      fail(why + "\n(CI=true forbids skipping)");
    }
    Assumptions.abort(why);
    return Map.of();
  }

  /**
   * Stops the VM lab ({@code lab/vm down}) when {@code env} says it was started, unless {@code
   * TUNELAB_VM_LAB=keep} asks to keep it up for the next run of the tests.
   */
  static void down(Map<String, String> env) throws Exception {
    if (env != null && !env.isEmpty() && !"keep".equals(System.getenv("TUNELAB_VM_LAB"))) {
      String out = run(5, "down");
      if (out != null) {
        throw new IOException("lab/vm down failed:\n" + out);
      }
    }
  }

  /** Standard output of {@code COMMAND} run as root on guest {@code host}; fails unless 0. */
  static String ssh(String host, String command) throws Exception {
    Process p =
        new ProcessBuilder(List.of(script().toString(), "ssh", host, command))
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(TestTime.seconds(120), TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IOException("lab/vm ssh " + host + " '" + command + "' failed: " + out);
    }
    return out.trim();
  }

  /** The inventory {@code lab/vm-hosts.yaml}. */
  static Path inventory() {
    return Lab.root().resolve("lab/vm-hosts.yaml");
  }

  /** {@code lab/vm-state/env} as names and values, quotes removed (docs/lab.md). */
  static Map<String, String> env() throws IOException {
    return Files.readAllLines(Lab.root().resolve("lab/vm-state/env")).stream()
        .filter(l -> l.contains("=") && !l.startsWith("#"))
        .collect(
            Collectors.toMap(
                l -> l.substring(0, l.indexOf('=')),
                l -> l.substring(l.indexOf('=') + 1).replaceAll("^\"(.*)\"$", "$1")));
  }

  private static Path script() {
    return Lab.root().resolve("lab/vm");
  }

  /** Runs {@code lab/vm ARGS…} (a fault: {@code kill client}); fails unless it succeeded. */
  static void lab(long minutes, String... args) throws Exception {
    String out = run(minutes, args);
    if (out != null) {
      throw new IOException("lab/vm " + String.join(" ", args) + " failed:\n" + out);
    }
  }

  /** Runs {@code lab/vm ARGS…}; null when it succeeded, else what it printed. */
  private static String run(long minutes, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(script().toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(minutes, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      return out + "\n(no end within " + minutes + " min)";
    }
    return p.exitValue() == 0 ? null : out;
  }
}
