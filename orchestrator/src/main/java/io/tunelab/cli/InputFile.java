package io.tunelab.cli;

import io.tunelab.TunelabException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** A text file a person gave tunelab (a matrix, an inventory), read with reasons people use. */
final class InputFile {
  /** Far more than any matrix or inventory; a larger file is a mistake, not an input. */
  static final long MAX_BYTES = 16L << 20;

  private InputFile() {}

  /**
   * The UTF-8 text of {@code file}.
   *
   * @param what what the file should be, for the message: "the matrix", "the inventory"
   * @throws TunelabException (bad input) {@code FILE: cannot read WHAT: REASON}, the reason one of
   *     "no such file", "permission denied", "a directory", "not a regular file", "larger than 16
   *     MiB"; bytes that are not UTF-8 as {@code FILE:LINE:COL: cannot read WHAT: not UTF-8 …}
   */
  static String read(Path file, String what) {
    try {
      return text(file);
    } catch (NotUtf8 e) {
      // Where editors' quickfix lists find it, as every other problem of a file.
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          file + ":" + e.line + ":" + e.column + ": cannot read " + what + ": " + e.getMessage());
    } catch (IOException e) {
      throw new TunelabException(
          TunelabException.BAD_INPUT, file + ": cannot read " + what + ": " + reason(e));
    }
  }

  /** As {@link #read}, with the reason as the message of an {@link IOException}. */
  static String text(Path file) throws IOException {
    if (Files.isDirectory(file)) {
      throw new IOException("a directory");
    }
    if (Files.exists(file) && !Files.isRegularFile(file)) {
      // A device or a pipe (/dev/zero) would be read until the heap runs out.
      throw new IOException("not a regular file");
    }
    if (Files.exists(file) && Files.size(file) > MAX_BYTES) {
      throw new IOException("larger than 16 MiB");
    }
    return decode(Files.readAllBytes(file));
  }

  static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  private static String decode(byte[] bytes) throws CharacterCodingException, IOException {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isError()) {
      int line = 1;
      int lineStart = 0;
      for (int i = 0; i < in.position(); i++) {
        if (bytes[i] == '\n') {
          line++;
          lineStart = i + 1;
        }
      }
      // The column as an editor counts it: the characters before the bad byte on its line.
      int column =
          new String(bytes, lineStart, in.position() - lineStart, StandardCharsets.UTF_8).length()
              + 1;
      throw new NotUtf8(line, column, bytes[in.position()]);
    }
    decoder.flush(out);
    return out.flip().toString();
  }

  /** Bytes that are not UTF-8, at a line and column. */
  static final class NotUtf8 extends IOException {
    final int line;
    final int column;

    NotUtf8(int line, int column, byte bad) {
      super(
          String.format(
              java.util.Locale.ROOT,
              "not UTF-8 at line %d (byte 0x%02x): save the file as UTF-8",
              line,
              bad & 0xff));
      this.line = line;
      this.column = column;
    }
  }
}
