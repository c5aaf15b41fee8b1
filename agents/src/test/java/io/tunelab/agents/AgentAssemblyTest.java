package io.tunelab.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged script is its modules ({@code src/main/sh}) end to end, each once, the prelude and
 * the trial's leader first and the entry point last; and the leader, which stops reading the script
 * at the end of its module, uses nothing defined after it.
 */
class AgentAssemblyTest {

  static final Path SOURCES = Path.of("src/main/sh");
  private static final Pattern FUNCTION =
      Pattern.compile("(?m)^([A-Za-z_][A-Za-z0-9_]*)\\(\\) \\{");
  private static final Pattern ASSIGNED =
      Pattern.compile("(?:^|[\\s;(!])([A-Z][A-Z0-9_]*)=|read -r ([A-Z][A-Z0-9_]*)");
  private static final Pattern READ = Pattern.compile("\\$\\{?([A-Z][A-Z0-9_]*)");

  private static Map<String, String> modules;
  private static List<String> order;

  /** The modules by file name. */
  static Map<String, String> modules() throws IOException {
    Map<String, String> found = new LinkedHashMap<>();
    try (Stream<Path> files = Files.list(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".sh")).sorted().toList()) {
        found.put(file.getFileName().toString(), Files.readString(file));
      }
    }
    return found;
  }

  @BeforeAll
  static void splitTheScriptIntoModules() throws IOException {
    modules = modules();
    String script = new String(AgentScript.load().bytes(), StandardCharsets.UTF_8);
    order = new ArrayList<>();
    int at = 0;
    while (at < script.length()) {
      String next = null;
      for (Map.Entry<String, String> module : modules.entrySet()) {
        if (script.startsWith(module.getValue(), at)
            && (next == null || module.getValue().length() > modules.get(next).length())) {
          next = module.getKey();
        }
      }
      if (next == null) {
        int line = script.substring(0, at).split("\n", -1).length;
        fail("line " + line + " of the packaged script is in no module of " + SOURCES);
      }
      order.add(next);
      at += modules.get(next).length();
    }
  }

  @Test
  void everyModuleIsInTheScriptOnce() {
    assertEquals(modules.keySet(), new TreeSet<>(order), "modules missing from the script");
    assertEquals(modules.size(), order.size(), "a module twice: " + order);
  }

  @Test
  void thePreludeAndTheTrialLeaderComeFirstAndTheEntryPointLast() {
    // The leader's own helpers may stand between the prelude and it (monitor-counters.sh,
    // trial-stop.sh).
    assertEquals("prelude.sh", order.get(0), order.toString());
    assertTrue(order.indexOf("trial-leader.sh") <= 3, order.toString());
    assertEquals("main.sh", order.get(order.size() - 1), order.toString());
    assertTrue(modules.get("prelude.sh").startsWith("#!/bin/sh\n"));
    assertTrue(
        modules
            .get("trial-leader.sh")
            .endsWith(
                "  trial_main \"$2\" \"$tl_jobs\" \"$tl_monitors\" \"$tl_timeout\" \"$tl_duration\""
                    + " \"$tl_grace\"\nfi\n"),
        "the trial leader's module must end with its entry point");
  }

  @Test
  void theTrialLeaderUsesNothingDefinedAfterIt() {
    int end = order.indexOf("trial-leader.sh") + 1;
    String leader =
        code(order.subList(0, end).stream().map(modules::get).collect(Collectors.joining()));
    String agent =
        code(
            order.subList(end, order.size()).stream()
                .map(modules::get)
                .collect(Collectors.joining()));
    Set<String> leaderAssigns = assigned(leader);

    for (String function : names(FUNCTION, agent)) {
      assertTrue(
          !Pattern.compile("(?<![\\w-])" + function + "(?![\\w-])").matcher(leader).find(),
          "the trial's leader calls " + function + ", defined after its entry point");
    }
    for (String variable : names(READ, leader)) {
      assertTrue(
          leaderAssigns.contains(variable) || !assigned(agent).contains(variable),
          "the trial's leader reads " + variable + ", set only after its entry point");
    }
  }

  @Test
  void everyModuleIsReadableInOneSittingAndEndsItsLastLine() {
    for (Map.Entry<String, String> module : modules.entrySet()) {
      long lines = module.getValue().lines().count();
      assertTrue(lines <= 500, module.getKey() + " has " + lines + " lines");
      assertTrue(module.getValue().endsWith("\n"), module.getKey() + " lacks its last newline");
    }
  }

  /** The text without its comment lines. */
  private static String code(String text) {
    return text.lines()
        .filter(line -> !line.stripLeading().startsWith("#"))
        .collect(Collectors.joining("\n"));
  }

  private static Set<String> assigned(String code) {
    Set<String> found = new TreeSet<>();
    Matcher matcher = ASSIGNED.matcher(code);
    while (matcher.find()) {
      found.add(matcher.group(1) != null ? matcher.group(1) : matcher.group(2));
    }
    return found;
  }

  private static Set<String> names(Pattern pattern, String code) {
    Set<String> found = new TreeSet<>();
    Matcher matcher = pattern.matcher(code);
    while (matcher.find()) {
      found.add(matcher.group(1));
    }
    return found;
  }
}
