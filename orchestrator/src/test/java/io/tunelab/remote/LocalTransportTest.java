package io.tunelab.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What runs on the local host does not see the controller's passphrase variables. */
class LocalTransportTest {

  // HOME stands in for a passphrase variable: every test JVM has it set
  private final LocalTransport local = new LocalTransport(List.of("HOME"));

  @Test
  void aCommandRunsWithoutThePassphraseVariables() throws Exception {
    Transport.ExecResult result =
        local.exec(
            "echo \"${HOME-unset} ${SSH_AUTH_SOCK-unset} ${TUNELAB_SSH_PASSPHRASE-unset}\"",
            null,
            Duration.ofSeconds(30));

    assertEquals(0, result.exitCode(), result.stderrText());
    assertEquals("unset unset unset\n", result.stdoutText());
  }

  @Test
  void aLongLivedCommandRunsWithoutThemToo() throws Exception {
    Transport.Channel channel = local.open("echo \"${HOME-unset}\"");
    try (InputStream out = channel.stdout()) {
      assertEquals("unset\n", new String(out.readAllBytes(), StandardCharsets.UTF_8));
    } finally {
      channel.close();
    }
  }
}
