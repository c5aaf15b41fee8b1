package io.tunelab.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --hosts FILE}: the inventory; otherwise the matrix's {@code hosts:} entry. */
public final class HostsOption {
  @Option(
      names = "--hosts",
      paramLabel = "FILE",
      description =
          "Inventory of SSH hosts (default: the matrix's hosts: entry; else only 'local').")
  Path file;
}
