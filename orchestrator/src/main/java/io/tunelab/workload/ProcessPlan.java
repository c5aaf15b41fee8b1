package io.tunelab.workload;

import java.util.List;

/**
 * One process of a job: a name such as {@code writer.0} and the argv the agent executes as is.
 *
 * @param stdinText the text the process reads on its standard input (a fio job file), or null
 */
public record ProcessPlan(String name, List<String> argv, String stdinText) {}
