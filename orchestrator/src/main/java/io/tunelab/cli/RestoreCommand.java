package io.tunelab.cli;

import io.tunelab.TunelabException;
import io.tunelab.agent.AgentResponse;
import io.tunelab.agent.AgentSession;
import io.tunelab.agents.AgentScript;
import io.tunelab.remote.LocalTransport;
import io.tunelab.remote.Transport;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code tunelab restore}: replays the journal of originals the agent keeps on each host, so a
 * killed controller leaves nothing mistuned.
 */
@Command(
    name = "restore",
    mixinStandardHelpOptions = true,
    description = "Write back every original value journaled on the host by an interrupted run.")
final class RestoreCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    try (Transport local = new LocalTransport()) {
      AgentResponse response = AgentSession.oneShot(local, AgentScript.load(), "restore");
      int restored = 0;
      for (String[] row : response.rows("restored", 3)) {
        out.println("host " + local.host() + ": restored " + row[1] + " = " + (row.length > 2 ? row[2] : ""));
        restored++;
      }
      for (String[] row : response.rows("stale", 2)) {
        out.println("host " + local.host() + ": discarded a journal from an earlier boot (" + row[1]
            + "): the reboot already reset those settings");
      }
      int failed = response.rows("fail", 3).size();
      response.rows("fail", 3).forEach(
          row -> out.println("host " + local.host() + ": could not restore " + row[1] + ": "
              + (row.length > 2 ? row[2] : "")));
      if (failed > 0) {
        throw new TunelabException(
            TunelabException.HOST_REFUSED,
            "host " + local.host() + ": " + failed + " setting(s) could not be restored; the journal keeps them");
      }
      out.println("host " + local.host() + ": " + (restored == 0 ? "nothing to restore" : restored + " setting(s) restored"));
      return 0;
    }
  }
}
