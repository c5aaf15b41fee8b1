package io.tunelab.matrix;

/**
 * Reads the files a matrix names besides itself (fio job files), so that the loader can check them
 * without doing I/O of its own.
 */
@FunctionalInterface
public interface JobFiles {
  /** For matrices read where no file can be opened: every job file is refused. */
  JobFiles NONE =
      path -> {
        throw new IllegalArgumentException("job files cannot be read here");
      };

  /**
   * The text of {@code path} as the matrix writes it (relative to the matrix file).
   *
   * @throws IllegalArgumentException with a one-line reason when it cannot be read
   */
  String read(String path);
}
