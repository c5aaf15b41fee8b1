package io.tunelab.remote;

import io.tunelab.agent.AgentSession;
import io.tunelab.agents.AgentScript;
import io.tunelab.testing.Timings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * bench/controller.sh's SSH figures, against the tests' in-process SSH server on loopback: a line
 * sent on an open channel and its answer read back, and an agent request ({@code hello}) over one
 * session. What they cost on a real network is bench/ssh-overhead.sh's (the lab).
 *
 * <p>Usage: {@code java -cp tunelab.jar:test-classes io.tunelab.remote.SshRoundTripBench [COUNT]}
 */
public final class SshRoundTripBench {
  private SshRoundTripBench() {}

  public static void main(String[] args) throws Exception {
    int count = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    Path dir = Files.createTempDirectory("tunelab-ssh-bench");
    try {
      measure(dir, count);
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static void measure(Path dir, int count) throws Exception {
    SshFixture fx = new SshFixture(dir);
    try (TestSshServer server = TestSshServer.start(fx.remoteEnv());
        SshSessions sessions = new SshSessions(fx.options())) {
      Transport ssh = sessions.connect(fx.hostFor(server, authorizedKey(server, dir)));
      System.out.println(lineRoundTrips(ssh, count));
      Timings hello = new Timings("agent hello over one SSH session");
      try (AgentSession agent = AgentSession.start(ssh, AgentScript.load())) {
        for (int i = 0; i < count / 10 + 10; i++) {
          long t0 = System.nanoTime();
          agent.hello();
          if (i >= 10) {
            hello.since(t0);
          }
        }
      }
      System.out.println(hello);
    }
  }

  /** SshFixture.authorizedKey without JUnit, which the bench's class path does not hold. */
  private static Path authorizedKey(TestSshServer server, Path dir) throws Exception {
    Path key = dir.resolve("id");
    Process p =
        new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key.toString())
            .inheritIO()
            .start();
    if (p.waitFor() != 0) {
      throw new IOException("ssh-keygen failed");
    }
    server.authorize(SshFixture.publicKey(key));
    return key;
  }

  private static Timings lineRoundTrips(Transport ssh, int count) throws IOException {
    Timings line = new Timings("line round trip on an open SSH channel");
    try (Transport.Channel channel = ssh.open("while read -r line; do echo \"$line\"; done")) {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(channel.stdout(), StandardCharsets.UTF_8));
      OutputStream in = channel.stdin();
      for (int i = 0; i < count + 100; i++) {
        long t0 = System.nanoTime();
        in.write(("request " + i + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        if (!("request " + i).equals(out.readLine())) {
          throw new IOException("the channel did not echo request " + i);
        }
        if (i >= 100) {
          line.since(t0);
        }
      }
      in.close();
    }
    return line;
  }
}
