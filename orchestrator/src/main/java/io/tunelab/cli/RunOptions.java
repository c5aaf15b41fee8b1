package io.tunelab.cli;

import picocli.CommandLine.Mixin;

/** The options {@code run} and {@code resume} share: database, inventory, limits, recovery. */
final class RunOptions {
  @Mixin DatabaseOption db;

  @Mixin HostsOption hosts;

  @Mixin MaxTimeOption maxTime;

  @Mixin RecoveryOptions recovery;
}
