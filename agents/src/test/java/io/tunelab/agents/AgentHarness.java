package io.tunelab.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real agent script under one shell, with its state and fake knobs in a temp dir. Knobs
 * are plain files, allowed through the agent's TUNELAB_KNOB_ROOT test hook: nothing here touches
 * /proc or /sys.
 */
final class AgentHarness {

  static final long TIMEOUT_SECONDS = 20;

  private final Path shell;
  private final Path script;
  private final Path state;
  private final Path knobs;
  private final Map<String, String> env = new HashMap<>();

  AgentHarness(String shellName, Path dir) {
    this.shell = Tools.require(shellName);
    this.script = dir.resolve(AgentScript.load().fileName());
    this.state = dir.resolve("state");
    this.knobs = dir.resolve("knobs");
    try {
      Files.createDirectories(dir);
      Files.write(script, AgentScript.load().bytes());
      Files.createDirectories(knobs);
      // the test hook that lets temp files stand in for sysfs knobs
      env.put("TUNELAB_KNOB_ROOT", knobs.toRealPath().toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    env.put("TUNELAB_STATE", state.toString());
    // a live lock holder is waited for this long before the agent refuses
    env.put("TUNELAB_LOCK_WAIT", "1");
    // a serve whose input ends restores its journal this long after
    env.put("TUNELAB_GRACE", "1");
  }

  /** Sets (or, with null, removes) one environment variable of every agent started from now. */
  AgentHarness env(String key, String value) {
    if (value == null) {
      env.remove(key);
    } else {
      env.put(key, value);
    }
    return this;
  }

  /** Creates the state directory as the agent would: mode 0700. */
  Path createState() {
    try {
      Files.createDirectories(state.getParent());
      if (!Files.isDirectory(state)) {
        Files.createDirectory(
            state,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      }
      return state;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Path knobs() {
    return knobs;
  }

  Path state() {
    return state;
  }

  Path journal() {
    return state.resolve("journal");
  }

  /** A fake knob file holding {@code value} plus a newline, like sysfs prints it. */
  Path knob(String name, String value) {
    Path path = knobs.resolve(name);
    write(path, value + "\n");
    return path;
  }

  /** Knob file path without creating it. */
  Path knobPath(String name) {
    return knobs.resolve(name);
  }

  static String read(Path path) {
    try {
      return Files.readString(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void write(Path path, String text) {
    try {
      Files.writeString(path, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String tab(Object... fields) {
    StringBuilder line = new StringBuilder();
    for (Object field : fields) {
      if (line.length() > 0) {
        line.append('\t');
      }
      line.append(field);
    }
    return line.toString();
  }

  /** The boot id as the agent reads it (OneShotVerbsTest checks that facts agrees). */
  static String bootId() {
    Path bootId = Path.of("/proc/sys/kernel/random/boot_id");
    return Files.isReadable(bootId) ? read(bootId).trim() : "unknown";
  }

  private ProcessBuilder builder(String... args) {
    List<String> command = new ArrayList<>(List.of(shell.toString(), script.toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(knobs.toFile());
    pb.environment().putAll(env);
    return pb;
  }

  /** Starts a one-shot call without waiting: stdout and stderr go to files. */
  Call start(String verb, String... payload) {
    return startRaw(verb, lines(payload));
  }

  /** Runs a one-shot call with {@code stdin} sent exactly as given. */
  Result callRaw(String verb, String stdin) {
    return startRaw(verb, stdin).await();
  }

  private Call startRaw(String verb, String stdin) {
    try {
      Path out = Files.createTempFile(knobs.getParent(), "out", ".txt");
      Path err = Files.createTempFile(knobs.getParent(), "err", ".txt");
      Process process =
          builder(verb).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      try (OutputStream in = process.getOutputStream()) {
        in.write(stdin.getBytes(StandardCharsets.UTF_8));
      }
      return new Call(process, out, err);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code sh tunelab-agent.sh VERB} with the payload lines on stdin and waits. */
  Result call(String verb, String... payload) {
    return start(verb, payload).await();
  }

  /** Starts {@code sh tunelab-agent.sh serve}. */
  Server serve() {
    try {
      Path err = Files.createTempFile(knobs.getParent(), "serve-err", ".txt");
      return new Server(builder("serve").redirectError(err.toFile()).start(), err);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String lines(String... payload) {
    StringBuilder text = new StringBuilder();
    for (String line : payload) {
      text.append(line).append('\n');
    }
    return text.toString();
  }

  /** A one-shot agent process writing to files. */
  record Call(Process process, Path out, Path err) {
    Result await() {
      try {
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          fail("agent did not finish within " + TIMEOUT_SECONDS + " s; stderr: " + read(err));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      String stdout = read(out);
      List<String> lines = stdout.isEmpty() ? List.of() : List.of(stdout.split("\n", -1));
      if (!lines.isEmpty()) {
        assertEquals("", lines.get(lines.size() - 1), "stdout must end with a newline");
        lines = lines.subList(0, lines.size() - 1);
      }
      return new Result(process.exitValue(), lines, read(err), process.pid(), null);
    }
  }

  /**
   * What a request answered: its status, response lines (unprefixed), stderr, the agent's pid and
   * the sequence number its status line echoed (null when none).
   */
  record Result(int rc, List<String> lines, String stderr, long pid, String seq) {

    /** The lines starting with {@code kind<TAB>}, without that field. */
    List<String> rest(String kind) {
      List<String> found = new ArrayList<>();
      for (String line : lines) {
        if (line.startsWith(kind + "\t")) {
          found.add(line.substring(kind.length() + 1));
        }
      }
      return found;
    }

    /** The value of a {@code KEY<TAB>VALUE} line. */
    Optional<String> value(String key) {
      List<String> found = rest(key);
      return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }
  }

  /** A running {@code serve} process, spoken to through the wire format. */
  static final class Server implements AutoCloseable {
    private static final String EOF = "\u0000EOF";
    private final Process process;
    private final Path err;
    private final OutputStream stdin;
    private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();

    Server(Process process, Path err) {
      this.process = process;
      this.err = err;
      this.stdin = process.getOutputStream();
      Thread reader =
          new Thread(
              () -> {
                try (BufferedReader in =
                    new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                  for (String line = in.readLine(); line != null; line = in.readLine()) {
                    stdout.add(line);
                  }
                } catch (IOException e) {
                  // The process went away; EOF below tells the waiting test.
                }
                stdout.add(EOF);
              },
              "agent-stdout");
      reader.setDaemon(true);
      reader.start();
    }

    long pid() {
      return process.pid();
    }

    boolean isAlive() {
      return process.isAlive();
    }

    String stderr() {
      return read(err);
    }

    /** Writes a raw line (no header logic), for malformed-request tests. */
    void sendRaw(String line) {
      try {
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** Sends {@code VERB N} and the N payload lines. */
    void send(String verb, String... payload) {
      sendRaw(
          verb
              + " "
              + payload.length
              + (payload.length == 0 ? "" : "\n" + String.join("\n", payload)));
    }

    /** Reads one response; asserts every line before {@code $ RC} carries the {@code |}. */
    Result await() {
      List<String> raw = awaitRaw();
      String[] status = raw.get(raw.size() - 1).substring(2).split(" ", -1);
      assertTrue(status.length <= 2, "bad status line: " + raw.get(raw.size() - 1));
      List<String> lines =
          raw.subList(0, raw.size() - 1).stream().map(l -> l.substring(1)).toList();
      return new Result(
          Integer.parseInt(status[0]),
          lines,
          stderr(),
          process.pid(),
          status.length > 1 ? status[1] : null);
    }

    /** Reads one response as sent: its {@code |} lines and its closing {@code $} line. */
    List<String> awaitRaw() {
      List<String> lines = new ArrayList<>();
      while (true) {
        String line;
        try {
          line = stdout.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
        assertNotNull(line, "no response within " + TIMEOUT_SECONDS + " s; stderr: " + stderr());
        if (line.equals(EOF)) {
          fail("agent closed stdout mid-response; stderr: " + stderr());
        }
        lines.add(line);
        if (line.startsWith("$ ")) {
          return lines;
        }
        assertTrue(line.startsWith("|"), "unprefixed stdout line: " + line);
      }
    }

    Result request(String verb, String... payload) {
      send(verb, payload);
      return await();
    }

    /** Closes stdin and returns the exit status; fails if the agent does not exit. */
    int closeAndWait() {
      closeStdin();
      if (!waitFor(TIMEOUT_SECONDS)) {
        fail("serve did not exit after stdin closed; stderr: " + stderr());
      }
      return process.exitValue();
    }

    /** Closes the agent's stdin, as a controller that went away would. */
    void closeStdin() {
      try {
        stdin.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** Closes the end the agent's answers go to, as a controller that went away would. */
    void closeStdout() {
      try {
        process.getInputStream().close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** Whether the agent exited within {@code seconds}. */
    boolean waitFor(double seconds) {
      try {
        return process.waitFor((long) (seconds * 1000), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    int exitValue() {
      return process.exitValue();
    }

    @Override
    public void close() {
      try {
        stdin.close();
      } catch (IOException e) {
        // already closed
      }
      try {
        if (!process.waitFor(Tools.millis(5000), TimeUnit.MILLISECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }
  }
}
