package io.tunelab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.store.Fixtures;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import io.tunelab.testing.Prerequisites;
import io.tunelab.testing.TestTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database on a read-only file system (a snapshot, an archive mount) reads as any other, though
 * SQLite cannot make the {@code -shm} file its WAL mode needs there; commits a {@code -wal} file
 * still holds are not silently left out.
 */
@Integration
class ReadOnlyDatabaseTest {
  @TempDir Path dir;
  Path mnt;
  Path db;
  boolean mounted;

  @BeforeEach
  void mountTmpfs() throws Exception {
    Prerequisites.root("mounts a tmpfs and makes it read-only");
    mnt = Files.createDirectory(dir.resolve("mnt"));
    sh("mount", "-t", "tmpfs", "-o", "size=16m", "tunelab-ro-test", mnt.toString());
    mounted = true;
    db = mnt.resolve("t.db");
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      Fixtures.readaheadStudy(store);
    }
  }

  @AfterEach
  void unmount() throws Exception {
    if (mounted) {
      sh("umount", mnt.toString());
    }
  }

  private static void sh(String... argv) throws Exception {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(TestTime.seconds(30), TimeUnit.SECONDS), String.join(" ", argv));
    assertEquals(0, p.exitValue(), String.join(" ", argv) + ": " + out);
  }

  private void readOnly() throws Exception {
    sh("mount", "-o", "remount,ro", mnt.toString());
  }

  @Test
  void aWalDatabaseOnAReadOnlyFileSystemIsRead() throws Exception {
    readOnly();

    Cli.Result r =
        Cli.tunelab(
            "query",
            "select count(*) as n from experiments",
            "--format",
            "csv",
            "--db",
            db.toString());
    Cli.Result report = Cli.tunelab("status", "--db", db.toString());

    assertEquals(0, r.code(), r.all());
    assertEquals("n\n2\n", r.out());
    assertEquals(0, report.code(), report.all());
    assertEquals(List.of("t.db"), List.of(mnt.toFile().list()), "nothing written beside it");
  }

  @Test
  void aWalFileWithCommitsOnAReadOnlyFileSystemIsRefusedNotLeftOut() throws Exception {
    Files.write(mnt.resolve("t.db-wal"), new byte[4096]);
    readOnly();

    Cli.Result r = Cli.tunelab("query", "select 1", "--db", db.toString());

    assertEquals(3, r.code(), r.all());
    assertTrue(
        r.err().contains("holds commits not yet in the database") && r.err().contains("copy both"),
        r.err());
  }
}
