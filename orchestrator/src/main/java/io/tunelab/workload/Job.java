package io.tunelab.workload;

import java.util.List;

/** One process of a workload: a name such as {@code dd.0} and the argv the agent executes as is. */
public record Job(String name, List<String> argv) {}
