package io.tunelab.cli;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;

/**
 * The testbed a run, a worker or a restore works on, as a shared database records it: {@code
 * --testbed}, else the inventory's file name without {@code .yaml}, else this machine's host name.
 */
final class TestbedName {
  private TestbedName() {}

  static String of(String given, Path inventory) {
    if (given != null && !given.isBlank()) {
      return given;
    }
    if (inventory != null) {
      return inventory.getFileName().toString().replaceFirst("\\.ya?ml$", "");
    }
    return host();
  }

  /** This machine's host name. */
  static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }
}
