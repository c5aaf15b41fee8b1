package io.tunelab.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The release archive {@code mvn package} builds (orchestrator/target/tunelab-VERSION.tar.gz),
 * unpacked as a user would, and its launcher run as a separate process.
 */
public final class ReleaseArchive {
  private ReleaseArchive() {}

  /** The outcome of one run of the launcher. */
  public record Result(int code, String out, String err) {
    public String all() {
      return out + err;
    }
  }

  /** The version the archive was built as (failsafe passes it; else from the file name). */
  public static String version() {
    String v = System.getProperty("tunelab.version");
    if (v != null && !v.isBlank()) {
      return v;
    }
    String name = archive().getFileName().toString();
    return name.substring("tunelab-".length(), name.length() - ".tar.gz".length());
  }

  /** The archive failsafe names, or the one in orchestrator/target. */
  public static Path archive() {
    String given = System.getProperty("tunelab.archive");
    if (given != null && !given.isBlank()) {
      return Path.of(given);
    }
    Path target = RepoFiles.repoRoot().resolve("orchestrator/target");
    try (Stream<Path> s = Files.list(target)) {
      return s.filter(p -> p.getFileName().toString().matches("tunelab-.+\\.tar\\.gz"))
          .findFirst()
          .orElseThrow(
              () -> new AssertionError("no release archive in " + target + ": mvn package"));
    } catch (IOException e) {
      throw new AssertionError("no " + target + ": mvn package", e);
    }
  }

  /** Unpacks the archive with tar into {@code dir}; returns the tunelab-VERSION directory. */
  public static Path unpack(Path dir) throws IOException, InterruptedException {
    Result r = run(dir, List.of("tar", "-xzf", archive().toString(), "-C", dir.toString()));
    if (r.code() != 0) {
      throw new AssertionError("tar failed: " + r.all());
    }
    return dir.resolve("tunelab-" + version());
  }

  /**
   * Runs {@code command} in {@code cwd} with this JVM's Java as {@code JAVA_HOME} and without
   * {@code TUNELAB_DB}, so that only what the command line says counts.
   */
  public static Result run(Path cwd, List<String> command)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).directory(cwd.toFile());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().remove("TUNELAB_DB");
    Path err = Files.createTempFile("tunelab-err", ".txt");
    pb.redirectError(err.toFile());
    Process p = pb.start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(TestTime.seconds(600), TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(command + " did not finish within 10 minutes");
    }
    String error = Files.readString(err, StandardCharsets.UTF_8);
    Files.delete(err);
    return new Result(p.exitValue(), out, error);
  }
}
