package io.tunelab.matrix;

import java.util.regex.Pattern;

/**
 * The kernel a role's host runs, written like a knob ({@code client.kernel: [A, B]}) but changed by
 * booting the host, not by writing a file.
 */
public final class Kernels {
  /** The value that means the release the host ran when the experiment started. */
  public static final String DEFAULT = "default";

  /** What {@code uname -r} prints, and the file names under /boot that go with it. */
  static final Pattern RELEASE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._+~-]*");

  private static final String SUFFIX = ".kernel";

  private Kernels() {}

  /** Whether a role-qualified key names a role's kernel ({@code ROLE.kernel}). */
  public static boolean isKey(String key) {
    int dot = key.indexOf('.');
    return dot > 0 && key.endsWith(SUFFIX) && dot == key.length() - SUFFIX.length();
  }

  /** The role of a kernel key. */
  public static String roleOf(String key) {
    return key.substring(0, key.length() - SUFFIX.length());
  }

  /** The key naming {@code role}'s kernel. */
  public static String keyOf(String role) {
    return role + SUFFIX;
  }

  /** Why {@code value} is no kernel release, or null when it is one (or {@code default}). */
  static String problem(String value) {
    if (value.equals(DEFAULT) || RELEASE.matcher(value).matches()) {
      return null;
    }
    return "'"
        + value
        + "' is not a kernel release: write it as `uname -r` prints it (e.g. 6.1.0-47-amd64),"
        + " or default for the one the host runs when the experiment starts";
  }
}
