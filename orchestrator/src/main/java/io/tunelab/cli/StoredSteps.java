package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.matrix.JobFiles;
import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixLoader;
import io.tunelab.store.ResultReader;
import io.tunelab.store.StoredExperiment;
import io.tunelab.store.StoredFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What {@code restore} and {@code resume} check before they run steps a database gives back (the
 * stored matrix's setup, teardown and workload, with its stored captures): they run as the caller,
 * often root, so the file must be one only the caller could have written, and every capture one a
 * capture could have produced.
 */
final class StoredSteps {
  private static final int GROUP_OR_OTHER_WRITE = 0022;
  private static final int STICKY = 01000;

  private StoredSteps() {}

  /** The matrix an experiment stored, with the job files it stored. */
  static Matrix matrix(ResultReader store, StoredExperiment stored) {
    return MatrixLoader.load(
        stored.matrixPath(), stored.matrixYaml(), jobFiles(store, stored), stored.overrides());
  }

  /**
   * The job files {@code stored} was planned with; for an experiment stored before tunelab kept
   * them, the files beside its original path.
   */
  static JobFiles jobFiles(ResultReader store, StoredExperiment stored) {
    return StoredFile.jobFiles(
        store.files(stored.id()), MatrixFiles.beside(Path.of(stored.matrixPath())));
  }

  /**
   * Refuses, with exit code 3, a database whose steps another user could have written: the file
   * (and its {@code -wal} or {@code -journal}, which SQLite replays into it) must be the caller's
   * and writable by no group or other; each directory above it (and above the path as given, when
   * that is a link) must be the caller's or root's and writable by no group or other unless sticky
   * (as {@code /tmp}), so no one can put another file in its place.
   */
  static void requireTrusted(Path db) {
    int caller = uid(Path.of("/proc/self"));
    Path file;
    try {
      file = db.toRealPath();
    } catch (IOException e) {
      throw refused(db, "it cannot be read: " + e.getMessage());
    }
    for (String suffix : List.of("", "-wal", "-journal")) {
      Path f = file.resolveSibling(file.getFileName() + suffix);
      if (!suffix.isEmpty() && !Files.exists(f)) {
        continue;
      }
      int uid = uid(f);
      int mode = mode(f);
      if (uid != caller || (mode & GROUP_OR_OTHER_WRITE) != 0 || !Files.isRegularFile(f)) {
        throw refused(
            db,
            f
                + " is owned by "
                + owner(f, uid)
                + " with mode "
                + octal(mode)
                + "; it must be yours (uid "
                + caller
                + "), a regular file and writable by you alone (chown, chmod go-w)");
      }
    }
    // The directories of the path as given too: a link there could be pointed elsewhere.
    Set<Path> dirs = new LinkedHashSet<>();
    for (Path start : List.of(db.toAbsolutePath().normalize(), file)) {
      for (Path dir = start.getParent(); dir != null; dir = dir.getParent()) {
        dirs.add(dir);
      }
    }
    for (Path dir : dirs) {
      int uid = uid(dir);
      int mode = mode(dir);
      boolean openToOthers = (mode & GROUP_OR_OTHER_WRITE) != 0 && (mode & STICKY) == 0;
      if ((uid != caller && uid != 0) || openToOthers) {
        throw refused(
            db,
            "directory "
                + dir
                + " is owned by "
                + owner(dir, uid)
                + " with mode "
                + octal(mode)
                + "; each directory above the database must be yours or root's and writable by"
                + " no one else unless sticky (chmod go-w, or o+t)");
      }
    }
  }

  private static TunelabException refused(Path db, String why) {
    return new TunelabException(
        TunelabException.HOST_REFUSED,
        "refusing to run the steps stored in " + db + ": " + why + "; nothing was run");
  }

  private static int uid(Path p) {
    return (Integer) attribute(p, "unix:uid");
  }

  private static int mode(Path p) {
    return (Integer) attribute(p, "unix:mode") & 07777;
  }

  private static Object attribute(Path p, String name) {
    try {
      return Files.getAttribute(p, name);
    } catch (IOException | UnsupportedOperationException e) {
      throw new TunelabException(
          TunelabException.HOST_REFUSED, "cannot tell who owns " + p + ": " + e.getMessage(), e);
    }
  }

  private static String owner(Path p, int uid) {
    try {
      return Files.getOwner(p).getName() + " (uid " + uid + ")";
    } catch (IOException e) {
      return "uid " + uid;
    }
  }

  private static String octal(int mode) {
    return String.format(Locale.ROOT, "%04o", mode);
  }
}
