package io.tunelab.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Integration;
import io.tunelab.testing.ReleaseArchive;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archive's install.sh, as the README uses it, into a temporary prefix: two versions side by
 * side, {@code current} and the command on the PATH following the newer, the older one intact and
 * back again with its own install.sh.
 */
@Integration
class InstallIT {
  @TempDir Path dir;

  @Test
  void anUpgradeSwitchesCurrentAndKeepsThePreviousVersion() throws Exception {
    String version = ReleaseArchive.version();
    Path prefix = dir.resolve("opt");
    Path bin = dir.resolve("bin");
    Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
    // The older version: the same tree, with a launcher that is that version.
    Path older = ReleaseArchive.unpack(Files.createDirectory(dir.resolve("older")));
    Files.writeString(older.resolve("bin/tunelab"), "#!/bin/sh\necho tunelab 0.0.1\n");
    Path newer = ReleaseArchive.unpack(Files.createDirectory(dir.resolve("newer")));

    install(older, prefix, bin);
    assertEquals("tunelab 0.0.1\n", tunelab(bin, elsewhere));
    install(newer, prefix, bin);

    Path home = prefix.resolve("tunelab");
    assertEquals(Path.of(version), Files.readSymbolicLink(home.resolve("current")));
    assertEquals(
        home.resolve("current/bin/tunelab"), Files.readSymbolicLink(bin.resolve("tunelab")));
    assertEquals("tunelab " + version + "\n", tunelab(bin, elsewhere));
    assertTrue(Files.isRegularFile(home.resolve(version + "/lib/tunelab.jar")));
    assertTrue(Files.isRegularFile(home.resolve("current/man/man1/tunelab.1")));
    assertTrue(Files.isRegularFile(home.resolve("current/completion/tunelab.bash")));
    assertEquals(
        "#!/bin/sh\necho tunelab 0.0.1\n", Files.readString(home.resolve("0.0.1/bin/tunelab")));
    try (var left = Files.list(home)) {
      assertEquals(
          Set.of("0.0.1", "current", version),
          left.map(p -> p.getFileName().toString()).collect(Collectors.toSet()),
          "no temporary names left behind");
    }

    install(home.resolve("0.0.1"), prefix, bin);
    assertEquals(Path.of("0.0.1"), Files.readSymbolicLink(home.resolve("current")));
    assertEquals("tunelab 0.0.1\n", tunelab(bin, elsewhere));
    assertTrue(Files.isRegularFile(home.resolve(version + "/lib/tunelab.jar")));
  }

  @Test
  void aFileInTheWayOfTheCommandIsLeftAlone() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Files.writeString(bin.resolve("tunelab"), "mine\n");
    Path tree = ReleaseArchive.unpack(Files.createDirectory(dir.resolve("archive")));

    ReleaseArchive.Result r =
        ReleaseArchive.run(
            dir,
            List.of(
                tree.resolve("install.sh").toString(),
                "--bin",
                bin.toString(),
                dir.resolve("opt").toString()));

    assertEquals(3, r.code(), r.all());
    assertTrue(r.err().contains("exists and is not a symbolic link"), r.err());
    assertEquals("mine\n", Files.readString(bin.resolve("tunelab")));
  }

  private static void install(Path tree, Path prefix, Path bin) throws Exception {
    ReleaseArchive.Result r =
        ReleaseArchive.run(
            tree.getParent(),
            List.of(
                tree.resolve("install.sh").toString(), "--bin", bin.toString(), prefix.toString()));
    assertEquals(0, r.code(), r.all());
  }

  private static String tunelab(Path bin, Path cwd) throws Exception {
    ReleaseArchive.Result r =
        ReleaseArchive.run(cwd, List.of(bin.resolve("tunelab").toString(), "--version"));
    assertEquals(0, r.code(), r.all());
    return r.out();
  }
}
