package io.tunelab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Integration;
import io.tunelab.testing.Prerequisites;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Root does not run the steps stored in another user's database, however private it is. */
@Integration
class ForeignDatabaseTest {
  private static final int NOBODY = 65534;

  @TempDir Path temp;

  @Test
  void aDatabaseAnotherUserOwnsIsRefusedBeforeAnyHost() throws Exception {
    Prerequisites.root("gives the database to another user");
    Path dir = Files.createDirectory(temp.resolve("work"));
    Path db = dir.resolve("tunelab.db");
    Path log = dir.resolve("teardown.log");
    StoredStepsTest.killedRun(db, log, "loop7");
    Files.setAttribute(db, "unix:uid", NOBODY);

    InDirectory.Result r = InDirectory.tunelab(dir, temp, "restore");

    assertEquals(3, r.code(), r.out());
    assertTrue(
        r.out()
            .contains(
                db.toRealPath()
                    + " is owned by "
                    + Files.getOwner(db).getName()
                    + " (uid 65534) with mode 0600; it must be yours (uid 0)"),
        r.out());
    assertFalse(r.out().contains("host local"), "no host is contacted:\n" + r.out());
    assertFalse(Files.exists(log), r.out());
  }
}
