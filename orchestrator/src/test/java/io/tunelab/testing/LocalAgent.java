package io.tunelab.testing;

import io.tunelab.agent.AgentSession;
import io.tunelab.agents.AgentScript;
import io.tunelab.remote.LocalTransport;
import io.tunelab.remote.Transport;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The real agent on this machine through {@link LocalTransport}, with its state directory and its
 * installed copy under a temp dir, so a test touches no real state; files under that dir may stand
 * for knobs (the agent's test hook {@code TUNELAB_KNOB_ROOT}).
 */
public final class LocalAgent implements Transport {
  private final LocalTransport local = new LocalTransport();
  private final Path state;
  private final String env;

  public LocalAgent(Path dir) {
    this.state = dir.resolve("state");
    this.env =
        "export TUNELAB_STATE='"
            + state
            + "' XDG_CACHE_HOME='"
            + dir.resolve("cache")
            + "' TUNELAB_KNOB_ROOT='"
            + dir
            + "' TUNELAB_LOCK_WAIT=1; ";
  }

  /** The agent's state directory. */
  public Path state() {
    return state;
  }

  /** Installs the agent and starts {@code serve}. */
  public AgentSession start() {
    return AgentSession.start(this, AgentScript.load());
  }

  @Override
  public String host() {
    return local.host();
  }

  @Override
  public ExecResult exec(String command, byte[] stdin, Duration timeout) throws IOException {
    return local.exec(env + command, stdin, timeout);
  }

  @Override
  public Channel open(String command) throws IOException {
    return local.open(env + command);
  }

  @Override
  public void close() {
    local.close();
  }
}
