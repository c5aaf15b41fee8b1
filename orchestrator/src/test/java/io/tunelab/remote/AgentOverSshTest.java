package io.tunelab.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agent.AgentSession;
import io.tunelab.agents.AgentScript;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real agent, shipped and spoken to over SSH exactly as on a remote host. */
class AgentOverSshTest {
  @TempDir Path dir;

  @Test
  void theAgentInstallsOnceAndAnswersOverOneSession() throws Exception {
    SshFixture fx = new SshFixture(dir);
    Path remoteHome = fx.remoteHome();
    try (TestSshServer server = TestSshServer.start(fx.remoteEnv());
        SshSessions sessions = new SshSessions(fx.options())) {
      Transport ssh =
          sessions.connect(fx.hostFor(server, fx.authorizedKey(server, "id", "ed25519")));
      try (AgentSession agent = AgentSession.start(ssh, AgentScript.load())) {
        assertTrue(agent.remotePath().startsWith(remoteHome.toString()), agent.remotePath());
        for (int i = 0; i < 20; i++) {
          assertEquals("1", agent.hello().version());
        }
      }
      // A second start finds the installed copy by its hash: still one session.
      try (AgentSession again = AgentSession.start(ssh, AgentScript.load())) {
        assertEquals("1", again.hello().version());
      }
      assertEquals(1, server.sessions.get());
    }
  }
}
