package io.tunelab.run;

import io.tunelab.knob.Knob;

/** A resolved knob on the host that plays {@code role}; {@code name} is as the matrix wrote it. */
public record RoleKnob(String role, String host, Knob knob) {
  /** The role-qualified name, e.g. {@code disk.block.loop3.read_ahead_kb}. */
  public String qualified() {
    return role + "." + knob.name();
  }
}
