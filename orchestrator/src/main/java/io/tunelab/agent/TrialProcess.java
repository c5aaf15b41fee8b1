package io.tunelab.agent;

import java.util.List;

/**
 * One process of a trial as the agent starts it.
 *
 * @param name unique on its host, e.g. {@code writer.0}
 * @param argv executed as is, never parsed by a shell
 * @param stdinText what it reads on standard input (a fio job file), or null for none
 * @param ionice null, or {@code idle}, {@code be/N} or {@code rt/N}
 * @param nice null, or -20 to 19
 * @param cpus null, or a taskset CPU list such as {@code 0-3,6}
 * @param wholeStdout whether its whole stdout comes back (a parser reads it all), not its tail
 */
public record TrialProcess(
    String name,
    List<String> argv,
    String stdinText,
    String ionice,
    Integer nice,
    String cpus,
    boolean wholeStdout) {

  public TrialProcess {
    argv = List.copyOf(argv);
  }
}
