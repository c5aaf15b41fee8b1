package io.tunelab.agent;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an {@code apply} did: the value read back from every file it wrote or checked, and every
 * save or write that failed.
 *
 * @param status 0 when everything was written, 1 when something failed
 * @param effective path to the value read back after all writes (empty when unreadable), in the
 *     order of the request's {@code set} and then {@code check} lines
 * @param before the host's health after the writes, when the request asked for it; else null
 */
public record ApplyResult(
    int status, Map<String, String> effective, List<PathFailure> failures, Health before) {

  public ApplyResult {
    effective = Collections.unmodifiableMap(new LinkedHashMap<>(effective));
    failures = List.copyOf(failures);
  }

  /** A result without a health snapshot. */
  public ApplyResult(int status, Map<String, String> effective, List<PathFailure> failures) {
    this(status, effective, failures, null);
  }

  public boolean ok() {
    return status == 0 && failures.isEmpty();
  }

  static ApplyResult from(Answer answer) {
    Map<String, String> effective = new LinkedHashMap<>();
    answer.rows("eff", 3).forEach(r -> effective.put(r[1], r[2]));
    List<PathFailure> failures = new ArrayList<>();
    answer.rows("fail", 3).forEach(r -> failures.add(new PathFailure(r[1], r[2])));
    return new ApplyResult(answer.status(), effective, failures, Health.in(answer, "before"));
  }
}
