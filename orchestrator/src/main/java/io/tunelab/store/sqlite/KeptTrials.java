package io.tunelab.store.sqlite;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tunelab.TunelabException;
import io.tunelab.store.Attempt;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialHost;
import io.tunelab.store.TrialResult;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Side files for trial commits the database refused (full disk, I/O error, busy, read-only, a
 * PostgreSQL server away past the wait): {@code <experiment>-<trial>.json} in {@code t.db.pending/}
 * beside an SQLite database {@code t.db}, or in the user's state directory for a PostgreSQL one
 * ({@link Transactions#keptTrialsDirectory}), each written whole and synced, so a measured trial,
 * its attempts and its event line survive until {@code resume} stores them. A run reserves some
 * space there first, given back the moment a trial has to be kept: a full disk must not refuse the
 * side file too.
 */
final class KeptTrials {
  /** Room held back for side files; a trial's samples and settings take a few kilobytes. */
  static final int RESERVE_BYTES = 1 << 20;

  private static final String RESERVE = ".reserve";

  /** Made on first use: every store has kept trials, few commands touch them. */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  private final Path dir;

  /** The side files kept in {@code dir} ({@link Transactions#keptTrialsDirectory}). */
  KeptTrials(Path dir) {
    this.dir = dir;
  }

  /** The side files of the SQLite database {@code db}. */
  static KeptTrials beside(Path db) {
    Path file = db.toAbsolutePath().normalize();
    return new KeptTrials(file.resolveSibling(file.getFileName() + ".pending"));
  }

  /**
   * The format of the side files written now: 2 added the attempts and the event line, 3 what each
   * host ran, 4 the trial's health flags (in its result).
   */
  static final int FORMAT = 4;

  /**
   * One kept trial commit as its side file holds it (format 1 files have neither attempts nor
   * event, format 2 files no hosts, format 3 files no health flags: they read as none).
   */
  record KeptTrial(
      int format,
      long experimentId,
      long trialId,
      String keptAt,
      String firstError,
      TrialResult result,
      List<KeptAttempt> attempts,
      String event,
      List<TrialHost> hosts) {

    /** What {@code commit} keeps, its next trial's start aside: that trial did not begin. */
    static KeptTrial of(long experimentId, String keptAt, String firstError, TrialCommit commit) {
      return new KeptTrial(
          FORMAT,
          experimentId,
          commit.trialId(),
          keptAt,
          firstError,
          commit.result(),
          commit.attempts().stream().map(KeptAttempt::of).toList(),
          commit.event(),
          commit.hosts());
    }

    /** The commit to store on resume. */
    TrialCommit commit() {
      List<Attempt> kept =
          attempts == null ? List.of() : attempts.stream().map(KeptAttempt::attempt).toList();
      return new TrialCommit(
          trialId, result, kept, event, OptionalLong.empty(), hosts == null ? List.of() : hosts);
    }
  }

  /** An attempt in a side file, its instants as ISO-8601 text. */
  record KeptAttempt(String startedAt, String finishedAt, String status, String error) {
    static KeptAttempt of(Attempt a) {
      return new KeptAttempt(
          a.startedAt().toString(), a.finishedAt().toString(), a.status().name(), a.error());
    }

    Attempt attempt() {
      return new Attempt(
          Instant.parse(startedAt),
          Instant.parse(finishedAt),
          Attempt.Status.valueOf(status),
          error);
    }
  }

  Path dir() {
    return dir;
  }

  /** Holds {@link #RESERVE_BYTES} for side files; false when even that does not fit. */
  boolean reserve() {
    Path reserve = dir.resolve(RESERVE);
    try {
      Files.createDirectories(dir);
      if (Files.exists(reserve) && Files.size(reserve) >= RESERVE_BYTES) {
        return true;
      }
      try (FileChannel ch =
          FileChannel.open(
              reserve,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.TRUNCATE_EXISTING)) {
        // Real blocks, not a sparse file: only written bytes hold space.
        ByteBuffer zeros = ByteBuffer.allocate(64 * 1024);
        for (int n = 0; n < RESERVE_BYTES; n += zeros.capacity()) {
          zeros.clear();
          while (zeros.hasRemaining()) {
            ch.write(zeros);
          }
        }
        ch.force(true);
      }
      return true;
    } catch (IOException e) {
      release();
      return false;
    }
  }

  /** Gives the reserved space back, and removes the folder when no trial is kept in it. */
  void release() {
    try {
      Files.deleteIfExists(dir.resolve(RESERVE));
      if (Files.isDirectory(dir) && list().isEmpty()) {
        Files.deleteIfExists(dir);
      }
    } catch (IOException e) {
      // A leftover reserve is reused by the next run; nothing is lost.
    }
  }

  /**
   * Writes {@code trial} to its side file and syncs it and the folder, after giving back the
   * reserved space. Returns the file.
   */
  Path keep(KeptTrial trial) throws IOException {
    Files.deleteIfExists(dir.resolve(RESERVE));
    Files.createDirectories(dir);
    String name =
        (trial.experimentId() > 0 ? trial.experimentId() : "unknown") + "-" + trial.trialId();
    Path file = dir.resolve(name + ".json");
    Path temp = dir.resolve("." + name + ".json.tmp");
    byte[] bytes = Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(trial);
    try (FileChannel ch =
        FileChannel.open(
            temp,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer buf = ByteBuffer.wrap(bytes);
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(true);
    } catch (IOException e) {
      Files.deleteIfExists(temp);
      throw e;
    }
    Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    syncDir();
    return file;
  }

  /** The side files, by name. */
  List<Path> list() throws IOException {
    List<Path> files = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return files;
    }
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "[!.]*.json")) {
      ds.forEach(files::add);
    }
    files.sort(null);
    return files;
  }

  /** The trial kept in {@code file}; a file that cannot be read fails with exit code 3. */
  KeptTrial read(Path file) {
    try {
      return Json.MAPPER.readValue(file.toFile(), KeptTrial.class);
    } catch (IOException e) {
      throw new TunelabException(
          TunelabException.HOST_REFUSED,
          "cannot read the kept trial "
              + file
              + ": "
              + e.getMessage()
              + " (move it away to resume without it)",
          e);
    }
  }

  /** Deletes a side file whose trial is stored, and the folder once empty. */
  void delete(Path file) throws IOException {
    Files.deleteIfExists(file);
    syncDir();
    try {
      if (list().isEmpty() && !Files.exists(dir.resolve(RESERVE))) {
        Files.deleteIfExists(dir);
      }
    } catch (NoSuchFileException gone) {
      // already removed
    } catch (IOException notEmpty) {
      // a file appeared meanwhile: keep the folder
    }
  }

  private void syncDir() throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }
}
