package io.tunelab.inventory;

/** How commands gain root on a host where tunelab logs in as an ordinary user. */
public enum Become implements Keyword {
  /** Run commands as the login user (use {@code user: root} for knobs that need root). */
  NONE("none"),
  /** Run every command through {@code sudo -n}, which must not ask for a password. */
  SUDO("sudo");

  private final String word;

  Become(String word) {
    this.word = word;
  }

  /** The word written in the inventory. */
  @Override
  public String word() {
    return word;
  }
}
