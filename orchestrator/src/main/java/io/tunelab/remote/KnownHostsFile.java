package io.tunelab.remote;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends host keys to a known_hosts file whole, one writer at a time: first contacts with many
 * hosts at once (accept-new) must not merge two entries into one line.
 */
final class KnownHostsFile {
  /** Serialises writers in this JVM; the file lock serialises processes. */
  private static final Object WRITERS = new Object();

  private KnownHostsFile() {}

  /** Appends {@code line} (without its newline), after a newline if the file lacks a final one. */
  static void append(Path file, String line) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    synchronized (WRITERS) {
      try (FileChannel channel =
              FileChannel.open(
                  file,
                  StandardOpenOption.CREATE,
                  StandardOpenOption.READ,
                  StandardOpenOption.WRITE);
          FileLock lock = channel.lock()) {
        long size = channel.size();
        boolean needsNewline = false;
        if (size > 0) {
          ByteBuffer last = ByteBuffer.allocate(1);
          channel.read(last, size - 1);
          needsNewline = last.get(0) != '\n';
        }
        String text = (needsNewline ? "\n" : "") + line + "\n";
        ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        long at = size;
        while (bytes.hasRemaining()) {
          at += channel.write(bytes, at);
        }
        channel.force(true);
      }
    }
  }
}
