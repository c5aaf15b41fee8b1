package io.tunelab.store.sqlite;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Kept tool output as it is stored: UTF-8 text in the gzip format, so that {@code gzip -d} and
 * every language's gzip library read it back without tunelab.
 */
final class GzipText {
  private GzipText() {}

  /** The text, gzip-compressed. */
  static byte[] compress(String text) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
      gzip.write(text.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot compress in memory", e);
    }
    return bytes.toByteArray();
  }

  /** The text of gzip-compressed {@code data}; data that is not gzip fails. */
  static String decompress(byte[] data) {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(data))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("kept output is not gzip data: " + e.getMessage(), e);
    }
  }
}
