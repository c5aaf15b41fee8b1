package io.tunelab.agents;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The host agent script shipped in this jar, named by its content hash for upload. */
public final class AgentScript {

  /** Where the script lives on the classpath. */
  public static final String RESOURCE = "/io/tunelab/agents/tunelab-agent.sh";

  private final byte[] bytes;
  private final String sha256;

  private AgentScript(byte[] bytes) {
    this.bytes = bytes;
    this.sha256 = hex(bytes);
  }

  /** Reads the script from the classpath. */
  public static AgentScript load() {
    try (InputStream in = AgentScript.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "the agent script " + RESOURCE + " is not on the classpath");
      }
      return new AgentScript(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the agent script " + RESOURCE, e);
    }
  }

  /** The script as text (it is plain ASCII). */
  public String text() {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** The script's bytes, exactly as they are to be uploaded. */
  public byte[] bytes() {
    return bytes.clone();
  }

  /** SHA-256 of {@link #bytes()}, lower-case hex. */
  public String sha256() {
    return sha256;
  }

  /**
   * The name to store the script under on a host: a changed script gets a new name, so an existing
   * file of that name never needs to be compared or overwritten.
   */
  public String fileName() {
    return "tunelab-agent-" + sha256.substring(0, 16) + ".sh";
  }

  private static String hex(byte[] data) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM lacks SHA-256", e);
    }
  }
}
