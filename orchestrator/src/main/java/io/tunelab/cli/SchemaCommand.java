package io.tunelab.cli;

import io.tunelab.TunelabException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tunelab schema matrix|hosts}: the JSON Schema an editor checks a matrix or an inventory
 * with (docs/schema, copied into the jar by the build).
 */
@Command(
    name = "schema",
    mixinStandardHelpOptions = true,
    description = {
      "Print the JSON Schema (draft-07) of a matrix or an inventory, for editors.",
      "Editors that use yaml-language-server check and complete a file whose first line names"
          + " a saved copy: # yaml-language-server: $schema=PATH (docs/matrix.md)."
    })
final class SchemaCommand implements Callable<Integer> {
  @Parameters(
      paramLabel = "KIND",
      completionCandidates = Kinds.class,
      description = "matrix or hosts (the inventory).")
  String kind;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (!Kinds.ALL.contains(kind)) {
      throw new TunelabException(
          TunelabException.BAD_INPUT,
          "no schema '" + kind + "': write tunelab schema matrix or tunelab schema hosts");
    }
    spec.commandLine().getOut().print(text(kind));
    return 0;
  }

  /** The schema as the build packaged it from docs/schema. */
  static String text(String kind) {
    String resource = "/io/tunelab/schema/" + kind + ".schema.json";
    try (InputStream in = SchemaCommand.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The schemas there are, for completion. */
  static final class Kinds extends java.util.ArrayList<String> {
    static final List<String> ALL = List.of("matrix", "hosts");

    Kinds() {
      super(ALL);
    }
  }
}
