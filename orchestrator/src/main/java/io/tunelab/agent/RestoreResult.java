package io.tunelab.agent;

import java.util.ArrayList;
import java.util.List;

/**
 * What a {@code restore} did with the journal of originals.
 *
 * @param status 0 when every original was written back (or there was nothing to restore), 1 when
 *     some failed; those stay in the journal for a later restore
 * @param staleBoots the boot ids of journals discarded because the host rebooted since
 * @param gone paths that no longer exist (a removed disk): dropped from the journal, a warning
 * @param discarded lines dropped although their write failed ({@code restore --discard})
 * @param ended leftover processes of a dead agent that this one ended, as {@code PID COMMAND}
 */
public record RestoreResult(
    int status,
    List<Restored> restored,
    List<PathFailure> failures,
    List<String> staleBoots,
    List<String> gone,
    List<Restored> discarded,
    List<String> ended) {

  /** One original value written back. */
  public record Restored(String path, String value) {}

  public RestoreResult {
    restored = List.copyOf(restored);
    failures = List.copyOf(failures);
    staleBoots = List.copyOf(staleBoots);
    gone = List.copyOf(gone);
    discarded = List.copyOf(discarded);
    ended = List.copyOf(ended);
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
    List<String> gone = answer.rows("gone", 2).stream().map(r -> r[1]).toList();
    List<Restored> discarded = new ArrayList<>();
    answer.rows("discarded", 3).forEach(r -> discarded.add(new Restored(r[1], r[2])));
    List<String> ended = answer.rows("ended", 3).stream().map(r -> r[1] + " " + r[2]).toList();
    return new RestoreResult(answer.status(), restored, failures, stale, gone, discarded, ended);
  }
}
