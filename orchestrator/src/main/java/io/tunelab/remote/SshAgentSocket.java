package io.tunelab.remote;

import java.io.EOFException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.List;
import java.util.Map;
import org.apache.sshd.agent.SshAgent;
import org.apache.sshd.agent.SshAgentFactory;
import org.apache.sshd.agent.SshAgentKeyConstraint;
import org.apache.sshd.agent.SshAgentServer;
import org.apache.sshd.agent.common.AbstractAgentProxy;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.AttributeRepository;
import org.apache.sshd.common.AttributeRepository.AttributeKey;
import org.apache.sshd.common.FactoryManager;
import org.apache.sshd.common.channel.ChannelFactory;
import org.apache.sshd.common.session.ConnectionService;
import org.apache.sshd.common.session.Session;
import org.apache.sshd.common.session.SessionContext;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;

/**
 * Speaks the ssh-agent protocol over the Unix socket in {@code SSH_AUTH_SOCK} with Java's own
 * Unix-domain channels (SSHD's own agent client needs the native APR library).
 */
final class SshAgentSocket extends AbstractAgentProxy {
  /** Set in a connection's context when the host's config says IdentitiesOnly. */
  static final AttributeKey<Boolean> SKIP = new AttributeKey<>();

  private static final int MAX_ANSWER = 256 * 1024;

  private final SocketChannel socket;

  private SshAgentSocket(SocketChannel socket) {
    super(null);
    this.socket = socket;
  }

  /** The agent at {@code socket} for every session that does not skip it. */
  static SshAgentFactory factory(Path socket) {
    return new SshAgentFactory() {
      @Override
      public List<ChannelFactory> getChannelForwardingFactories(FactoryManager manager) {
        return List.of();
      }

      @Override
      public SshAgent createClient(Session session, FactoryManager manager) {
        if (session instanceof ClientSession client && skips(client.getConnectionContext())) {
          return new NoAgent();
        }
        try {
          SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
          channel.connect(UnixDomainSocketAddress.of(socket));
          return new SshAgentSocket(channel);
        } catch (IOException | RuntimeException e) {
          // a stale SSH_AUTH_SOCK: authenticate with the key files alone
          return new NoAgent();
        }
      }

      @Override
      public SshAgentServer createServer(ConnectionService service) {
        throw new UnsupportedOperationException("tunelab does not forward ssh-agent");
      }
    };
  }

  /** The socket named by {@code SSH_AUTH_SOCK} if it exists, else null. */
  static Path find(java.util.function.Function<String, String> env) {
    String value = env.apply("SSH_AUTH_SOCK");
    if (value == null || value.isBlank()) {
      return null;
    }
    Path path = Path.of(value);
    return Files.exists(path) ? path : null;
  }

  private static boolean skips(AttributeRepository context) {
    return context != null && Boolean.TRUE.equals(context.getAttribute(SKIP));
  }

  @Override
  protected synchronized Buffer request(Buffer buffer) throws IOException {
    ByteBuffer out = ByteBuffer.wrap(buffer.array(), buffer.rpos(), buffer.available());
    while (out.hasRemaining()) {
      socket.write(out);
    }
    int length = read(4).getInt();
    if (length < 1 || length > MAX_ANSWER) {
      throw new IOException("ssh-agent sent a message of " + length + " bytes");
    }
    return new ByteArrayBuffer(read(length).array());
  }

  private ByteBuffer read(int n) throws IOException {
    ByteBuffer in = ByteBuffer.allocate(n);
    while (in.hasRemaining()) {
      if (socket.read(in) < 0) {
        throw new EOFException("ssh-agent closed the connection");
      }
    }
    return in.flip();
  }

  @Override
  public boolean isOpen() {
    return socket.isOpen();
  }

  @Override
  public void close() throws IOException {
    try {
      socket.close();
    } finally {
      super.close();
    }
  }

  /** An agent without keys, for sessions that must not use the real one. */
  private static final class NoAgent implements SshAgent {
    @Override
    public Iterable<? extends Map.Entry<PublicKey, String>> getIdentities() {
      return List.of();
    }

    @Override
    public Map.Entry<String, byte[]> sign(
        SessionContext session, PublicKey key, String algorithm, byte[] data) throws IOException {
      throw new IOException("no ssh-agent for this host");
    }

    @Override
    public void addIdentity(KeyPair key, String comment, SshAgentKeyConstraint... constraints)
        throws IOException {
      throw new IOException("no ssh-agent for this host");
    }

    @Override
    public void removeIdentity(PublicKey key) throws IOException {
      throw new IOException("no ssh-agent for this host");
    }

    @Override
    public void removeAllIdentities() throws IOException {
      throw new IOException("no ssh-agent for this host");
    }

    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public void close() {}
  }
}
