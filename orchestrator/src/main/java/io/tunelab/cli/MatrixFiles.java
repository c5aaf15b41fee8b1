package io.tunelab.cli;

import io.tunelab.matrix.JobFiles;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixLoader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** Reads a matrix file from disk: the file I/O the pure matrix package leaves to its caller. */
final class MatrixFiles {
  private MatrixFiles() {}

  static Matrix load(Path file) {
    return load(file, Map.of());
  }

  /** The matrix with the run's {@code --set} overrides. */
  static Matrix load(Path file, Map<String, String> overrides) {
    return MatrixLoader.load(
        file.toString(), InputFile.read(file, "the matrix"), beside(file), overrides);
  }

  /** The job files a matrix names, read relative to the matrix file's directory. */
  static JobFiles beside(Path matrixFile) {
    return path -> {
      Path file = matrixFile.resolveSibling(path);
      try {
        return InputFile.text(file);
      } catch (IOException e) {
        throw new IllegalArgumentException(InputFile.reason(e));
      }
    };
  }
}
