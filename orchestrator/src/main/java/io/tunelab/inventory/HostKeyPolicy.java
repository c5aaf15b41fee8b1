package io.tunelab.inventory;

/** What to do with a host key that known_hosts does not list yet. */
public enum HostKeyPolicy implements Keyword {
  /** Refuse it: the user adds the key to known_hosts after checking its fingerprint. */
  STRICT("strict"),
  /** Add it to known_hosts on first contact; a changed key is still refused. */
  ACCEPT_NEW("accept-new");

  private final String word;

  HostKeyPolicy(String word) {
    this.word = word;
  }

  /** The word written in the inventory. */
  @Override
  public String word() {
    return word;
  }
}
