package io.tunelab.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tunelab.matrix.Durations;
import io.tunelab.testing.GoldenFiles;
import io.tunelab.testing.RepoFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every {@code valid/*.yaml} reads as its {@code .hosts.txt}; every {@code invalid/*.yaml} fails
 * with exactly its {@code .errors.txt}. Paths resolve against the pretend directory {@code
 * /lab/tunelab}.
 */
class InventoryGoldenTest {
  private static final String BASE = "/lab/tunelab";

  @TestFactory
  Stream<DynamicTest> validInventoriesReadAsTheirGoldenHosts() throws IOException {
    return examples("valid")
        .map(
            yaml ->
                DynamicTest.dynamicTest(
                    name(yaml),
                    () -> {
                      Inventory inventory = Inventory.load(name(yaml), RepoFiles.read(yaml), BASE);
                      String actual = describe(inventory);
                      Path golden = sibling(yaml, ".hosts.txt");
                      assertEquals(GoldenFiles.expected(golden, actual), actual);
                    }));
  }

  @TestFactory
  Stream<DynamicTest> invalidInventoriesFailWithTheirGoldenMessages() throws IOException {
    return examples("invalid")
        .map(
            yaml ->
                DynamicTest.dynamicTest(
                    name(yaml),
                    () -> {
                      InventoryException e =
                          assertThrows(
                              InventoryException.class,
                              () -> Inventory.load(name(yaml), RepoFiles.read(yaml), BASE));
                      assertEquals(2, e.exitCode());
                      String actual = e.getMessage() + "\n";
                      Path golden = sibling(yaml, ".errors.txt");
                      assertEquals(GoldenFiles.expected(golden, actual), actual);
                    }));
  }

  /** One block per host, every field, unset ones as {@code -}. */
  static String describe(Inventory inventory) {
    StringBuilder out = new StringBuilder();
    for (HostSpec h : inventory.hosts()) {
      out.append(h.name()).append(" (").append(h.position()).append(")\n");
      field(out, "address", h.address());
      field(out, "port", h.port());
      field(out, "user", h.user());
      field(out, "identity", h.identity());
      field(out, "known_hosts", h.knownHosts());
      field(out, "host_key", h.hostKey().word());
      field(out, "become", h.become().word());
      field(out, "passphrase_env", h.passphraseEnv());
      if (!h.boot().equals(BootSpec.DEFAULT)) {
        BootSpec b = h.boot();
        field(
            out, "boot", b.method().word() + (b.command() == null ? "" : " (" + b.command() + ")"));
        field(out, "boot_timeout", Durations.format(b.timeout()));
        field(out, "power_cycle", b.powerCycle());
      }
    }
    return out.toString();
  }

  private static void field(StringBuilder out, String name, Object value) {
    out.append("  ").append(name).append(": ").append(value == null ? "-" : value).append('\n');
  }

  private static Stream<Path> examples(String dir) throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.list(RepoFiles.testResources("inventory").resolve(dir))) {
      files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().collect(Collectors.toList());
    }
    assertFalse(files.isEmpty(), "no examples in " + dir);
    return files.stream();
  }

  private static String name(Path yaml) {
    return yaml.getFileName().toString();
  }

  private static Path sibling(Path yaml, String suffix) {
    String base = name(yaml).substring(0, name(yaml).length() - ".yaml".length());
    return yaml.resolveSibling(base + suffix);
  }
}
