package io.tunelab.agent;

import java.util.ArrayList;
import java.util.List;

/**
 * What a {@code restore} did with the journal of originals.
 *
 * @param status 0 when every original was written back (or there was nothing to restore), 1 when
 *     some failed; those stay in the journal for a later restore
 * @param staleBoots the boot ids of journals discarded because the host rebooted since
 */
public record RestoreResult(
    int status, List<Restored> restored, List<PathFailure> failures, List<String> staleBoots) {

  /** One original value written back. */
  public record Restored(String path, String value) {}

  public RestoreResult {
    restored = List.copyOf(restored);
    failures = List.copyOf(failures);
    staleBoots = List.copyOf(staleBoots);
  }

  public boolean ok() {
    return status == 0 && failures.isEmpty();
  }

  static RestoreResult from(Answer answer) {
    List<Restored> restored = new ArrayList<>();
    answer.rows("restored", 3).forEach(r -> restored.add(new Restored(r[1], r[2])));
    List<PathFailure> failures = new ArrayList<>();
    answer.rows("fail", 3).forEach(r -> failures.add(new PathFailure(r[1], r[2])));
    List<String> stale = answer.rows("stale", 2).stream().map(r -> r[1]).toList();
    return new RestoreResult(answer.status(), restored, failures, stale);
  }
}
