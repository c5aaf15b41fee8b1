package io.tunelab.agent;

import io.tunelab.agents.AgentScript;
import io.tunelab.remote.Transport;
import java.io.IOException;
import java.time.Duration;

/**
 * Puts the agent script on a host under a content-hash name in a per-user cache directory, and
 * reuses a copy that is already there with the right hash.
 */
final class AgentInstaller {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private AgentInstaller() {}

  /** Returns the script's path on the host. */
  static String install(Transport transport, AgentScript script) {
    String dir = "\"${XDG_CACHE_HOME:-$HOME/.cache}/tunelab\"";
    String file = dir.substring(0, dir.length() - 1) + "/" + script.fileName() + "\"";
    String check =
        "f="
            + file
            + "; if [ -f \"$f\" ] && [ \"$(sha256sum < \"$f\" | cut -c1-64)\" = "
            + script.sha256()
            + " ]; then echo \"$f\"; else echo missing; fi";
    String upload =
        "mkdir -p "
            + dir
            + " && f="
            + file
            + " && cat > \"$f.$$\" && mv \"$f.$$\" \"$f\""
            + " && echo \"$f\"";
    try {
      Transport.ExecResult found = transport.exec(check, null, TIMEOUT);
      String path = found.stdoutText().trim();
      if (found.exitCode() == 0 && path.startsWith("/")) {
        return path;
      }
      Transport.ExecResult put = transport.exec(upload, script.bytes(), TIMEOUT);
      path = put.stdoutText().trim();
      if (put.exitCode() != 0 || !path.startsWith("/")) {
        throw new AgentException(
            transport.host(), "cannot install the agent: " + put.stderrText().trim());
      }
      return path;
    } catch (IOException e) {
      throw new AgentException(transport.host(), "cannot install the agent: " + e.getMessage(), e);
    }
  }
}
