package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.matrix.MatrixLoader;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.ResultStore;
import io.tunelab.store.sqlite.JdbcResultStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code restore} and {@code resume} run the steps a database stores, as the caller: a planted
 * capture is refused as a capture would have been, a database someone else could have written is
 * refused before any host is contacted, and tunelab makes its files private.
 */
class StoredStepsTest {
  private static final String PLANTED = "loop99; id > MARKER; #";

  @TempDir Path temp;
  Path dir;
  Path db;
  Path marker;
  Path log;

  @BeforeEach
  void paths() throws Exception {
    dir = Files.createDirectory(temp.resolve("work"));
    db = dir.resolve("tunelab.db");
    marker = dir.resolve("PWNED");
    log = dir.resolve("teardown.log");
  }

  /** A killed controller's experiment on the local host, whose setup captured {@code loop}. */
  static void killedRun(Path db, Path log, String loop) {
    String yaml =
        """
        name: planted
        setup:
          - run: echo /dev/loop7
            capture: loop
        teardown:
          - run: echo ${loop} >> LOG
        matrix:
          n: [1]
        workload:
          command: "true"
        """
            .replace("LOG", log.toString());
    try (ResultStore store = JdbcResultStore.open(db)) {
      long id =
          store
              .storePlan(ExperimentPlan.of(MatrixLoader.load("m.yaml", yaml)), "test")
              .experimentId();
      store.recordVariables(id, Map.of("loop", loop));
      store.setExperimentStatus(id, ExperimentStatus.RUNNING);
    }
  }

  private InDirectory.Result tunelab(String... args) throws Exception {
    return InDirectory.tunelab(dir, temp, args);
  }

  private ExperimentStatus status() {
    try (ResultStore store = JdbcResultStore.open(db)) {
      return store.findExperiment("1").orElseThrow().status();
    }
  }

  @Test
  void restoreRefusesAPlantedCaptureAndRunsNothing() throws Exception {
    killedRun(db, log, PLANTED.replace("MARKER", marker.toString()));

    InDirectory.Result r = tunelab("restore");

    assertEquals(3, r.code(), r.out());
    assertTrue(
        r.out()
            .contains(
                db.toRealPath()
                    + ": the stored capture ${loop} = 'loop99; id > "
                    + marker
                    + "; #' is refused (no safe value: letters, digits and . _ : + - only)"),
        r.out());
    assertFalse(r.out().contains("host local"), "no host is contacted:\n" + r.out());
    assertFalse(Files.exists(marker), r.out());
    assertFalse(Files.exists(log), r.out());
    assertEquals(ExperimentStatus.RUNNING, status());
  }

  @Test
  void resumeRefusesAPlantedCaptureAndRunsNothing() throws Exception {
    killedRun(db, log, PLANTED.replace("MARKER", marker.toString()));

    InDirectory.Result r = tunelab("resume", "1");

    assertEquals(3, r.code(), r.out());
    assertTrue(r.out().contains("the stored capture ${loop} = 'loop99; id > "), r.out());
    assertFalse(Files.exists(marker), r.out());
    assertFalse(Files.exists(log), r.out());
  }

  @Test
  void restoreRunsTheTeardownOfACaptureThatPassesTheCheck() throws Exception {
    killedRun(db, log, "loop7");
    // a sticky directory open to all, as /tmp, is fine: no one else can replace the file
    Files.setAttribute(dir, "unix:mode", 01777);

    InDirectory.Result r = tunelab("restore");

    assertEquals(0, r.code(), r.out());
    assertEquals("loop7\n", Files.readString(log), r.out());
    assertEquals(ExperimentStatus.INTERRUPTED, status());
  }

  @Test
  void aDatabaseOthersCanWriteIsRefusedBeforeAnyHost() throws Exception {
    killedRun(db, log, "loop7");
    Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("rw-rw-r--"));

    InDirectory.Result r = tunelab("restore");

    assertEquals(3, r.code(), r.out());
    assertTrue(
        r.out()
            .contains(
                "refusing to run the steps stored in tunelab.db: "
                    + db.toRealPath()
                    + " is owned by "
                    + owner(db)
                    + " with mode 0664; it must be yours"),
        r.out());
    assertFalse(r.out().contains("host local"), "no host is contacted:\n" + r.out());
    assertFalse(Files.exists(log), r.out());
  }

  @Test
  void aDirectoryOthersCanWriteWithoutStickyBitIsRefused() throws Exception {
    killedRun(db, log, "loop7");
    Files.setAttribute(dir, "unix:mode", 0777);

    InDirectory.Result r = tunelab("resume", "1");

    assertEquals(3, r.code(), r.out());
    assertTrue(
        r.out()
            .contains(
                "directory "
                    + dir.toRealPath()
                    + " is owned by "
                    + owner(dir)
                    + " with mode 0777; each directory above the database must be yours or"
                    + " root's"),
        r.out());
    assertFalse(Files.exists(log), r.out());
  }

  @Test
  void aNewDatabaseIsPrivateAndSoIsTheLogFolder() throws Exception {
    JdbcResultStore.open(db).close();
    try (RunLog l = RunLog.open(db, "m", new PrintWriter(new StringWriter()), Clock.systemUTC())) {
      assertEquals("rwx------", mode(l.file().getParent()));
    }

    assertEquals("rw-------", mode(db));
  }

  private static String owner(Path p) throws Exception {
    return Files.getOwner(p).getName() + " (uid " + Files.getAttribute(p, "unix:uid") + ")";
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
