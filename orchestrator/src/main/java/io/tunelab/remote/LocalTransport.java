package io.tunelab.remote;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The built-in host {@code local}: commands run as child processes of the controller.
 *
 * <p>Long-lived commands start in their own session ({@code setsid}) so that Ctrl-C in the terminal
 * reaches only the controller, which then cancels the workload and restores the host through the
 * still-running agent.
 *
 * <p>The controller's secrets stay with it ({@link ControllerSecrets}, and an inventory's
 * passphrase variables): they are removed from the environment of everything it starts here, so no
 * local workload sees them.
 */
public final class LocalTransport implements Transport {
  private static final Path SETSID = Path.of("/usr/bin/setsid");
  private final Set<String> secrets = new TreeSet<>();

  /** Keeps {@link ControllerSecrets#NAMES} from local commands. */
  public LocalTransport() {}

  /** Also keeps the variables {@code passphraseVariables} (an inventory's passphrase_env). */
  public LocalTransport(Collection<String> passphraseVariables) {
    secrets.addAll(passphraseVariables);
  }

  private ProcessBuilder builder(List<String> argv) {
    ProcessBuilder pb = new ProcessBuilder(argv);
    ControllerSecrets.removeFrom(pb.environment(), secrets);
    return pb;
  }

  @Override
  public String host() {
    return "local";
  }

  @Override
  public ExecResult exec(String command, byte[] stdin, Duration timeout) throws IOException {
    Process process = builder(List.of("sh", "-c", command)).start();
    CompletableFuture<byte[]> out = drain(process.getInputStream());
    CompletableFuture<byte[]> err = drain(process.getErrorStream());
    try (OutputStream in = process.getOutputStream()) {
      if (stdin != null) {
        in.write(stdin);
      }
    } catch (IOException ignored) {
      // the command did not read its stdin; its exit status tells what happened
    }
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new IOException("timed out after " + timeout.toSeconds() + " s: " + command);
      }
      return new ExecResult(process.exitValue(), out.join(), err.join());
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted: " + command, e);
    }
  }

  @Override
  public Channel open(String command) throws IOException {
    List<String> argv = new ArrayList<>();
    if (Files.isExecutable(SETSID)) {
      argv.add(SETSID.toString());
    }
    argv.addAll(List.of("sh", "-c", command));
    Process process = builder(argv).start();
    return new ProcessChannel(process);
  }

  @Override
  public void close() {}

  /**
   * Reads a stream to its end on a thread of its own, so stdout and stderr never block each other.
   */
  static CompletableFuture<byte[]> drain(InputStream in) {
    CompletableFuture<byte[]> result = new CompletableFuture<>();
    Thread reader =
        new Thread(
            () -> {
              try (in) {
                ByteArrayOutputStream buffer = new ByteArrayOutputStream();
                in.transferTo(buffer);
                result.complete(buffer.toByteArray());
              } catch (IOException e) {
                result.completeExceptionally(new UncheckedIOException(e));
              }
            },
            "tunelab-drain");
    reader.setDaemon(true);
    reader.start();
    return result;
  }

  private record ProcessChannel(Process process) implements Channel {
    @Override
    public OutputStream stdin() {
      return process.getOutputStream();
    }

    @Override
    public InputStream stdout() {
      return process.getInputStream();
    }

    @Override
    public InputStream stderr() {
      return process.getErrorStream();
    }

    @Override
    public boolean isOpen() {
      return process.isAlive();
    }

    @Override
    public void close() throws IOException {
      try {
        process.getOutputStream().close();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
          process.destroy();
        }
      } catch (InterruptedException e) {
        process.destroy();
        // Interrupted (Ctrl-C, SIGTERM): still let the agent end, so that its lock is gone when
        // the controller is.
        try {
          process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException again) {
          // gone or not, the interrupt is kept below
        }
        Thread.currentThread().interrupt();
      }
    }
  }
}
