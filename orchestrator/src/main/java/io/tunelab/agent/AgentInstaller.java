package io.tunelab.agent;

import io.tunelab.agents.AgentScript;
import io.tunelab.remote.Transport;
import java.io.IOException;
import java.time.Duration;

/**
 * Puts the agent script on a host under a content-hash name in the login user's cache directory,
 * {@code ${XDG_CACHE_HOME:-$HOME/.cache}/tunelab}, kept mode 0700 so that nobody else can even
 * reach the copy, and reuses a copy that is already there with the right hash. Every command that
 * runs the agent checks the directory and the hash again and execs the copy in one shell, so no
 * other command comes between the check and the start.
 */
final class AgentInstaller {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** How the commands below say that the agent's copy is absent or not the one shipped. */
  static final int NOT_VERIFIED = 3;

  private AgentInstaller() {}

  /** Ensures the host holds {@code script}'s copy; returns where (for messages). */
  static String install(Transport transport, AgentScript script) {
    String known = locate(script) + "if " + verified(script) + "; then echo \"$f\"; fi";
    String upload =
        locate(script)
            + "[ ! -h \"$d\" ] && mkdir -p \"$d\" && [ -O \"$d\" ] && chmod 700 \"$d\""
            + " && cat > \"$f.$$\" && mv -f \"$f.$$\" \"$f\" && "
            + verified(script)
            + " && echo \"$f\"";
    try {
      Transport.ExecResult found = transport.exec(known, null, TIMEOUT);
      String path = found.stdoutText().trim();
      if (found.exitCode() == 0 && path.startsWith("/")) {
        return path;
      }
      Transport.ExecResult put = transport.exec(upload, script.bytes(), TIMEOUT);
      path = put.stdoutText().trim();
      if (put.exitCode() != 0 || !path.startsWith("/")) {
        String why = put.stderrText().trim();
        throw new AgentException(
            transport.host(),
            "cannot install the agent"
                + (why.isEmpty()
                    ? ": its directory ${XDG_CACHE_HOME:-$HOME/.cache}/tunelab must be a"
                        + " directory (no symlink) of the login user, mode 700"
                    : ": " + why));
      }
      return path;
    } catch (IOException e) {
      throw new AgentException(transport.host(), "cannot install the agent: " + e.getMessage(), e);
    }
  }

  /**
   * The command that runs the agent with {@code verb} once its copy is verified, or exits {@link
   * #NOT_VERIFIED} with a line on stderr and runs nothing.
   */
  static String exec(AgentScript script, String verb) {
    return locate(script)
        + "if "
        + verified(script)
        + "; then exec sh \"$f\" "
        + verb
        + "; fi; echo \"tunelab: $f is not the agent tunelab shipped, or $d is not the login"
        + " user's alone (mode 700); not started\" >&2; exit "
        + NOT_VERIFIED;
  }

  /** Sets d and f, the directory and the copy, quoted wherever used: $HOME may hold blanks. */
  private static String locate(AgentScript script) {
    return "d=\"${XDG_CACHE_HOME:-$HOME/.cache}/tunelab\"; f=\"$d/" + script.fileName() + "\"; ";
  }

  /**
   * True when d is the login user's directory (no symlink), mode 700, and f in it a regular file
   * with the script's hash: then nobody but that user and root can change f before it runs.
   */
  private static String verified(AgentScript script) {
    return "[ -d \"$d\" ] && [ ! -h \"$d\" ] && [ -O \"$d\" ]"
        + " && [ \"$(stat -c %a \"$d\" 2>/dev/null)\" = 700 ]"
        + " && [ -f \"$f\" ] && [ ! -h \"$f\" ]"
        + " && [ \"$(sha256sum < \"$f\" 2>/dev/null | cut -c1-64)\" = "
        + script.sha256()
        + " ]";
  }
}
