package io.tunelab.agent;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The agent's lines off the wire: split on LF only, never on CR (a workload's progress bar or a
 * CRLF file must not end a protocol line), and bounded, so that a workload printing one endless
 * line cannot run the controller out of memory.
 */
final class LineFrames {
  /** Far longer than any protocol line; the agent caps what it relays well below this. */
  static final int MAX_LINE_BYTES = 1 << 20;

  private final InputStream in;
  private final int max;
  private final byte[] buffer = new byte[8192];
  private int position;
  private int limit;

  LineFrames(InputStream in) {
    this(in, MAX_LINE_BYTES);
  }

  LineFrames(InputStream in, int maxLineBytes) {
    this.in = in;
    this.max = maxLineBytes;
  }

  /**
   * The next line without its LF, or null at the end of the stream. A line longer than the bound
   * keeps its first bytes and ends with {@code [… N bytes cut]}; a last line without LF is a line.
   */
  String next() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    long cut = 0;
    boolean any = false;
    while (true) {
      if (position == limit) {
        limit = in.read(buffer);
        position = 0;
        if (limit <= 0) {
          limit = 0;
          return any ? text(line, cut) : null;
        }
      }
      any = true;
      int start = position;
      while (position < limit && buffer[position] != '\n') {
        position++;
      }
      int length = position - start;
      int room = max - line.size();
      line.write(buffer, start, Math.min(length, room));
      cut += Math.max(0, length - room);
      if (position < limit) {
        position++; // the LF
        return text(line, cut);
      }
    }
  }

  private static String text(ByteArrayOutputStream line, long cut) {
    String s = line.toString(StandardCharsets.UTF_8);
    return cut == 0 ? s : s + " [… " + cut + " bytes cut]";
  }
}
