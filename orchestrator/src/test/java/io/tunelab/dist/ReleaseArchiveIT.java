package io.tunelab.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Integration;
import io.tunelab.testing.ReleaseArchive;
import io.tunelab.testing.RepoFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive unpacked in a temporary directory runs from anywhere with only a Java
 * runtime: no checkout, no Maven. (The full quickstart from it needs root: it.ArchiveQuickstartIT.)
 */
@Integration
class ReleaseArchiveIT {
  @TempDir static Path dir;
  static Path home;
  static Path elsewhere;

  @BeforeAll
  static void unpack() throws Exception {
    home = ReleaseArchive.unpack(Files.createDirectory(dir.resolve("opt")));
    // as the README installs it: a symlink on the PATH, run from an unrelated directory
    Path bin = Files.createDirectory(dir.resolve("bin"));
    Files.createSymbolicLink(bin.resolve("tunelab"), bin.relativize(home.resolve("bin/tunelab")));
    elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
  }

  @Test
  void holdsTheLauncherJarManPagesCompletionDocsMatricesAndQueries() throws Exception {
    assertTrue(Files.isExecutable(home.resolve("bin/tunelab")));
    assertTrue(Files.isExecutable(home.resolve("install.sh")));
    for (String file :
        List.of(
            "lib/tunelab.jar",
            "install.sh",
            "README.md",
            "man/man1/tunelab.1",
            "man/man1/tunelab-report.1",
            "completion/tunelab.bash",
            "docs/matrix.md",
            "docs/schema/matrix.schema.json",
            "docs/schema/hosts.schema.json",
            "matrices/quickstart.yaml",
            "db/queries/01-experiments.sql")) {
      assertTrue(Files.isRegularFile(home.resolve(file)), file);
    }
    assertEquals(
        RepoFiles.read(RepoFiles.repoRoot().resolve("matrices/quickstart.yaml")),
        RepoFiles.read(home.resolve("matrices/quickstart.yaml")));
    assertTrue(RepoFiles.read(home.resolve("man/man1/tunelab-report.1")).contains(".TH "));
    assertTrue(
        RepoFiles.read(home.resolve("completion/tunelab.bash")).contains("_tunelab_experiments"));
  }

  @Test
  void everyMatrixItHoldsPlansWithWhatItHolds() throws Exception {
    List<Path> matrices;
    try (Stream<Path> files = Files.walk(home.resolve("matrices"))) {
      matrices =
          files
              .filter(p -> p.toString().endsWith(".yaml") && !p.endsWith("hosts.example.yaml"))
              .toList();
    }
    assertTrue(matrices.size() >= 6, matrices.toString());
    for (Path matrix : matrices) {
      ReleaseArchive.Result r =
          ReleaseArchive.run(
              elsewhere,
              List.of(
                  home.resolve("bin/tunelab").toString(), "plan", "--summary", matrix.toString()));
      assertEquals(0, r.code(), matrix + ": " + r.all());
    }
    assertFalse(Files.exists(home.resolve("matrices/lab")));
  }

  @Test
  void theJarCarriesWhatARunNeedsBesidesTheMatrix() throws Exception {
    try (ZipFile jar = new ZipFile(home.resolve("lib/tunelab.jar").toFile())) {
      for (String entry :
          List.of(
              "io/tunelab/store/db/V1__init.sql",
              "io/tunelab/agents/tunelab-agent.sh",
              "io/tunelab/schema/matrix.schema.json",
              "io/tunelab/cli/Main.class")) {
        assertTrue(jar.getEntry(entry) != null, entry);
      }
    }
  }

  @Test
  void versionThroughASymlinkFromAnotherDirectory() throws Exception {
    ReleaseArchive.Result r =
        ReleaseArchive.run(elsewhere, List.of(dir.resolve("bin/tunelab").toString(), "--version"));

    assertEquals(0, r.code(), r.all());
    assertEquals("tunelab " + ReleaseArchive.version() + "\n", r.out());
  }

  @Test
  void plansTheQuickstartAsTheReadmeWritesIt() throws Exception {
    ReleaseArchive.Result r =
        ReleaseArchive.run(home, List.of("bin/tunelab", "plan", "matrices/quickstart.yaml"));

    assertEquals(0, r.code(), r.all());
    assertTrue(
        r.out()
            .startsWith(
                "quickstart: 6 cells x 3 repetitions (+0 warm-up) = 18 trials, order sequential,"
                    + " seed 0\ntransitions "),
        r.out());
    assertTrue(r.out().contains("\n     1  scheduler=none/read_ahead_kb=128\n"), r.out());
    assertTrue(r.out().contains("     6  scheduler=mq-deadline/read_ahead_kb=2048\n"), r.out());
  }

  @Test
  void plansFromAnotherDirectoryThroughTheSymlink() throws Exception {
    ReleaseArchive.Result r =
        ReleaseArchive.run(
            elsewhere,
            List.of(
                dir.resolve("bin/tunelab").toString(),
                "plan",
                home.resolve("matrices/quickstart.yaml").toString()));

    assertEquals(0, r.code(), r.all());
    assertTrue(r.out().startsWith("quickstart: 6 cells x 3 repetitions"), r.out());
    assertTrue(Files.list(elsewhere).findAny().isEmpty(), "plan wrote nothing here");
  }

  @Test
  void printsTheSchemaItShips() throws Exception {
    ReleaseArchive.Result r =
        ReleaseArchive.run(
            elsewhere, List.of(home.resolve("bin/tunelab").toString(), "schema", "matrix"));

    assertEquals(0, r.code(), r.all());
    assertEquals(RepoFiles.read(home.resolve("docs/schema/matrix.schema.json")), r.out());
  }
}
