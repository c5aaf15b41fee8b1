package io.tunelab.run;

import io.tunelab.agent.Facts;
import java.util.Map;
import java.util.Objects;

/**
 * One host during a run: the facts it last answered with, which boot it is on (release, boot id,
 * and the round of that release the plan asked for) and what the controller knows of its knobs.
 * Every change of a host's boot goes through here: a host that answers again after a lost session
 * ({@link #back}) and one the run booted ({@link #booted}). The transitions are drawn in
 * docs/architecture.md.
 */
final class HostState {
  /** How a host came back after its session was lost. */
  enum Return {
    /** The same boot: only the agent and its connection are new. */
    SAME_BOOT,
    /** Another boot id on the release it ran before: the reboot reset its knobs and cell. */
    NEW_BOOT,
    /** Another release too: it came up on another kernel (the boot loader's default). */
    OTHER_RELEASE
  }

  private final String host;
  private final HostKnobState knobs;
  private Facts facts;
  private int round = 1;
  private boolean planned;

  HostState(String host, Facts facts, Map<String, String> originals) {
    this.host = host;
    this.facts = Objects.requireNonNull(facts);
    this.knobs = new HostKnobState(originals);
  }

  String host() {
    return host;
  }

  Facts facts() {
    return facts;
  }

  String bootId() {
    return facts.get("boot_id");
  }

  String release() {
    return facts.kernelRelease();
  }

  /** Which boot of its release the host is on: the round of the plan's {@code boots}. */
  int round() {
    return round;
  }

  /**
   * Whether the run made the boot the host is on (a boot of the plan, or one a resumed run finds
   * recorded); not the boot the experiment started on, nor one the host made by itself.
   */
  boolean planned() {
    return planned;
  }

  /** The round of a boot the run recorded earlier (on resume, a host still on that boot). */
  void resumeRound(int recorded) {
    this.round = recorded;
    this.planned = true;
  }

  HostKnobState knobs() {
    return knobs;
  }

  /**
   * The host answers again after its session was lost: whatever the controller believed of its
   * knobs is forgotten (a new agent may have restored them, a reboot reset them).
   */
  Return back(Facts fresh) {
    Facts before = facts;
    facts = fresh;
    knobs.forget();
    if (before.get("boot_id").equals(fresh.get("boot_id"))) {
      return Return.SAME_BOOT;
    }
    planned = false;
    return before.kernelRelease().equals(fresh.kernelRelease())
        ? Return.NEW_BOOT
        : Return.OTHER_RELEASE;
  }

  /**
   * The run booted the host into round {@code round} of its release: the knobs' originals are that
   * kernel's, read again once it is up ({@link #originalsRead}).
   */
  void booted(Facts fresh, int round) {
    this.facts = fresh;
    this.round = round;
    this.planned = true;
    knobs.forget();
  }

  /** The originals of the host's knobs as the kernel it booted has them. */
  void originalsRead(Map<String, String> originals) {
    knobs.booted(originals);
  }
}
