package io.tunelab.workload;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * dd's closing line, e.g. {@code 268435456 bytes (268 MB, 256 MiB) copied, 1.2 s, 224 MB/s}: the
 * bytes and seconds dd itself reports, which the statistics contract is built on.
 */
public record DdSummary(long bytes, double seconds) {
  private static final Pattern LINE =
      Pattern.compile("^(\\d+) bytes\\b.*\\bcopied, ([0-9.]+(?:[eE][-+]?\\d+)?) s\\b.*");

  /** The last dd summary among {@code lines}, if any. */
  public static Optional<DdSummary> find(List<String> lines) {
    for (int i = lines.size() - 1; i >= 0; i--) {
      Matcher m = LINE.matcher(lines.get(i).trim());
      if (m.matches()) {
        return Optional.of(
            new DdSummary(Long.parseLong(m.group(1)), Double.parseDouble(m.group(2))));
      }
    }
    return Optional.empty();
  }
}
