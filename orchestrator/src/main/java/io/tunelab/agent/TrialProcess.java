package io.tunelab.agent;

import java.time.Duration;
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
 * @param duration null for the trial's, else when it gets SIGINT, counted from the release
 * @param timeout null for the trial's, else when it is killed as timed out, counted from its start
 */
public record TrialProcess(
    String name,
    List<String> argv,
    String stdinText,
    String ionice,
    Integer nice,
    String cpus,
    boolean wholeStdout,
    Duration duration,
    Duration timeout) {

  public TrialProcess {
    argv = List.copyOf(argv);
  }

  /** A process with the trial's time limits. */
  public TrialProcess(
      String name,
      List<String> argv,
      String stdinText,
      String ionice,
      Integer nice,
      String cpus,
      boolean wholeStdout) {
    this(name, argv, stdinText, ionice, nice, cpus, wholeStdout, null, null);
  }
}
