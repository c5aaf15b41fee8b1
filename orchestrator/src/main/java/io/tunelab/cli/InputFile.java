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
   *     MiB", "not UTF-8 at line N"
   */
  static String read(Path file, String what) {
    try {
      return text(file);
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
      for (int i = 0; i < in.position(); i++) {
        if (bytes[i] == '\n') {
          line++;
        }
      }
      throw new IOException("not UTF-8 at line " + line);
    }
    decoder.flush(out);
    return out.flip().toString();
  }
}
