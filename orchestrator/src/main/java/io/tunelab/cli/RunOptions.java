package io.tunelab.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options {@code run} and {@code resume} share: database, inventory, limits, recovery, the
 * kernel left at the end.
 */
final class RunOptions {
  @Mixin DatabaseOption db;

  @Mixin HostsOption hosts;

  @Mixin MaxTimeOption maxTime;

  @Mixin RecoveryOptions recovery;

  @Option(
      names = "--keep-kernel",
      description =
          "Leave each host on the kernel it ran last, instead of booting it back into the one it"
              + " ran when the experiment started (docs/kernels.md).")
  boolean keepKernel;
}
