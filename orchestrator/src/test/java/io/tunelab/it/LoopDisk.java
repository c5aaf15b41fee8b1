package io.tunelab.it;

import io.tunelab.testing.TestTime;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A loop device over a file the test made; the only block device tests may tune. */
final class LoopDisk implements AutoCloseable {
  final Path image;
  final String dev;

  private LoopDisk(Path image, String dev) {
    this.image = image;
    this.dev = dev;
  }

  /** A loop disk of {@code mib} MiB of real (non-sparse) blocks. */
  static LoopDisk create(Path dir, int mib) throws IOException, InterruptedException {
    Path image = dir.resolve("disk.img");
    sh("dd if=/dev/zero of=" + image + " bs=1M count=" + mib + " conv=fsync status=none");
    return attach(image);
  }

  /** A loop disk over the test's own image file, which {@link #close} removes. */
  static LoopDisk attach(Path image) throws IOException, InterruptedException {
    String dev = sh("losetup -f --show " + image).trim();
    return new LoopDisk(image, dev.substring(dev.lastIndexOf('/') + 1));
  }

  String queue(String attr) throws IOException {
    return Files.readString(Path.of("/sys/block", dev, "queue", attr), StandardCharsets.UTF_8)
        .trim();
  }

  /** The selected scheduler, e.g. {@code none}. */
  String scheduler() throws IOException {
    String line = queue("scheduler");
    int open = line.indexOf('[');
    return open < 0 ? line : line.substring(open + 1, line.indexOf(']'));
  }

  /**
   * A /proc/sys value. One big read(2): /proc/sys answers a read at a non-zero offset with end of
   * file, so readers that start small (Files.readString on a size-0 file) see "2" for 20.
   */
  static String readProc(Path file) throws IOException {
    try (java.io.InputStream in = Files.newInputStream(file)) {
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
    }
  }

  static String sh(String command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(List.of("sh", "-c", command)).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(TestTime.seconds(120), TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException("'" + command + "' failed: " + out);
    }
    return out;
  }

  /**
   * Detaches the disk and removes its loop device from the kernel (LOOP_CTL_REMOVE), so that {@code
   * /sys/block/loopN} is gone as a pulled disk's would be.
   */
  void remove() throws IOException, InterruptedException {
    close();
    String n = dev.substring("loop".length());
    sh(
        "python3 -c 'import fcntl, os; fcntl.ioctl(os.open(\"/dev/loop-control\", os.O_RDWR),"
            + " 0x4C81, "
            + n
            + ")'");
  }

  @Override
  public void close() throws IOException, InterruptedException {
    sh("losetup -d /dev/" + dev + " || true");
    Files.deleteIfExists(image);
  }
}
