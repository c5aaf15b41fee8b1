package io.tunelab.it;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A loop disk of the test's own for each test: made (as root) before it, detached and deleted after
 * it, whatever the test did with it. Registered with {@code @RegisterExtension}; runs before the
 * class's own {@code @BeforeEach} methods, so they may read the disk.
 */
final class LoopDiskExtension implements BeforeEachCallback, AfterEachCallback {
  private final int mib;
  private Path dir;
  private LoopDisk disk;

  LoopDiskExtension(int mib) {
    this.mib = mib;
  }

  /** This test's disk. */
  LoopDisk disk() {
    return disk;
  }

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    Lab.requireRoot();
    dir = Files.createTempDirectory("tunelab-loop");
    disk = LoopDisk.create(dir, mib);
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    try {
      if (disk != null) {
        disk.close();
      }
    } finally {
      disk = null;
      if (dir != null) {
        Files.deleteIfExists(dir);
      }
    }
  }
}
