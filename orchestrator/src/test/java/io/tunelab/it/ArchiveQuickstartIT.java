package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Integration;
import io.tunelab.testing.ReleaseArchive;
import io.tunelab.testing.SqliteQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quickstart run from the release archive, unpacked in a temporary directory and started from
 * another one: the archive holds everything a run needs besides Java. Needs root (loop disk,
 * sysfs), like QuickstartTest; runs after package (failsafe).
 */
@Integration
class ArchiveQuickstartIT {
  @TempDir Path dir;

  @Test
  void theQuickstartRunsFromTheUnpackedArchive() throws Exception {
    Lab.requireRoot();
    Path home = ReleaseArchive.unpack(Files.createDirectory(dir.resolve("opt")));
    Path work = Files.createDirectory(dir.resolve("work"));
    Path db = work.resolve("q.db");

    ReleaseArchive.Result r =
        ReleaseArchive.run(
            work,
            List.of(
                home.resolve("bin/tunelab").toString(),
                "run",
                home.resolve("matrices/quickstart.yaml").toString(),
                "--db",
                db.toString()));

    assertEquals(0, r.code(), r.all());
    assertTrue(r.out().contains("IOPS"), r.out());
    assertEquals(
        List.of(List.of("18", "18")),
        SqliteQuery.rows(db, "select count(*), sum(status = 'ok') from trials"));
    assertTrue(!Files.exists(Path.of("/var/tmp/tunelab-quickstart.img")));
  }
}
