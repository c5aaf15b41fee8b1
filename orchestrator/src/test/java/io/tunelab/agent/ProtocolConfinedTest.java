package io.tunelab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.tunelab.testing.RepoFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The agent's wire format lives in this package only: {@code run/} and {@code cli/} call typed
 * methods and neither build nor parse protocol text.
 */
class ProtocolConfinedTest {
  /** Traces of protocol text: TAB-separated rows, the old untyped calls, hand-built commands. */
  private static final List<String> PROTOCOL =
      List.of(
          "\\t",
          "\t",
          ".rows(\"",
          ".request(",
          "session.require(",
          "AgentResponse",
          "\"sh \"",
          "\" cancel\"",
          "\" serve\"",
          "\"$ \"",
          "\"drop-caches\"");

  /**
   * Verbs as strings. {@code "sync"} is missing on purpose: it is also a {@code before_trial} step
   * of the matrix; {@code "facts"} too: it names a row of {@code hosts check}.
   */
  private static final List<String> VERBS =
      List.of(
          "hello", "read", "apply", "restore", "journal", "run", "start", "go", "wait", "stop",
          "cancel");

  @Test
  void runAndCliSpeakNoProtocol() throws IOException {
    List<String> offenders = new ArrayList<>();
    offenders.addAll(offenders("run", true));
    offenders.addAll(offenders("cli", false));
    assertEquals(List.of(), offenders);
  }

  private static List<String> offenders(String pkg, boolean verbs) throws IOException {
    Path dir = RepoFiles.repoRoot().resolve("orchestrator/src/main/java/io/tunelab").resolve(pkg);
    List<Path> sources;
    try (Stream<Path> s = Files.list(dir)) {
      sources = s.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    }
    assertFalse(sources.isEmpty(), pkg + " has no sources");
    List<String> forbidden = new ArrayList<>(PROTOCOL);
    if (verbs) {
      VERBS.forEach(v -> forbidden.add("\"" + v + "\""));
    }
    List<String> offenders = new ArrayList<>();
    for (Path p : sources) {
      String text = RepoFiles.read(p);
      for (String f : forbidden) {
        if (text.contains(f)) {
          offenders.add(pkg + "/" + p.getFileName() + ": " + f.replace("\t", "TAB"));
        }
      }
    }
    return offenders;
  }
}
