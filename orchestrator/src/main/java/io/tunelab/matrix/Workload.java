package io.tunelab.matrix;

import io.tunelab.yaml.Position;
import java.util.List;

/**
 * What runs in every trial, on role {@code on}. Fields are templates: {@code ${param}}, {@code
 * ${rep}} and captured variables are substituted per trial.
 */
public sealed interface Workload permits Workload.Dd, Workload.Command {

  String on();

  Position position();

  /**
   * dd as a first-class workload: {@code processes} concurrent dd's started together. Exactly one
   * of {@code count} and {@code total} is set.
   */
  record Dd(
      String on,
      String input,
      String output,
      String bs,
      String count,
      String total,
      List<String> flags,
      String processes,
      Position position)
      implements Workload {}

  /** Any program, run with {@code sh -c}; {@code parser} is {@code dd} or {@code none}. */
  record Command(String on, String command, String parser, String processes, Position position)
      implements Workload {}
}
