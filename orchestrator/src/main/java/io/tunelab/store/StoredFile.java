package io.tunelab.store;

import io.tunelab.matrix.JobFiles;
import java.util.List;

/**
 * A file an experiment read besides its matrix, as it was when it was planned.
 *
 * @param path as the matrix writes it (relative to the matrix file)
 * @param kind {@code jobfile} (a fio job file) or {@code inventory} (the inventory the matrix
 *     names)
 */
public record StoredFile(String path, String kind, String content) {
  /** The kind of a fio job file. */
  public static final String JOBFILE = "jobfile";

  /** The kind of the inventory a matrix names with {@code hosts:}. */
  public static final String INVENTORY = "inventory";

  /**
   * The job files of {@code files} by their path; a path they lack (an experiment planned before
   * files were stored) is read through {@code fallback}.
   */
  public static JobFiles jobFiles(List<StoredFile> files, JobFiles fallback) {
    return path ->
        files.stream()
            .filter(f -> f.kind().equals(JOBFILE) && f.path().equals(path))
            .map(StoredFile::content)
            .findFirst()
            .orElseGet(() -> fallback.read(path));
  }
}
