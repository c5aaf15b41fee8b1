package io.tunelab.agent;

import io.tunelab.agents.AgentScript;
import io.tunelab.knob.ApplyLine;
import io.tunelab.knob.ReadResult;
import io.tunelab.remote.Transport;
import io.tunelab.workload.ProcessPlan;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * One long-lived agent process on one host, spoken to over a single channel: one typed method per
 * verb of docs/agent.md, the only code that knows the agent's wire format.
 *
 * <p>Every phase of a trial is one request and one answer on this channel: no process start, no SSH
 * channel, no login shell per phase. Requests are serialized. A request that times out closes the
 * session: every later request on it throws, so a late answer is never taken for the next one.
 */
public final class AgentSession implements AutoCloseable {
  private static final Duration FACTS_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration PHASE_TIMEOUT = Duration.ofMinutes(5);
  private static final Duration RUN_GRACE = Duration.ofMinutes(1);
  private static final Duration CANCEL_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration CANCEL_AGAIN = Duration.ofMillis(100);
  private static final Duration CANCEL_RETRIES = Duration.ofSeconds(3);
  private static final Duration ONE_SHOT_TIMEOUT = Duration.ofMinutes(5);

  /** How long the final restore of one host may take: a journal of knob writes takes ms. */
  public static final Duration RESTORE_TIMEOUT = Duration.ofSeconds(60);

  /**
   * The agent's grace between SIGINT at a job's duration and SIGKILL (docs/agent.md) when neither
   * the request nor the host's {@code TUNELAB_STOP_GRACE} gives another.
   */
  public static final Duration STOP_GRACE = Duration.ofSeconds(10);

  private final Transport transport;
  private final AgentScript script;
  private final String remotePath;
  private final ServeChannel channel;

  /** How long the started trial may run on the host; null when none is started. */
  private volatile Duration startedLimit;

  /** True while a released trial's processes may run here: a cancel then is asked again. */
  private volatile boolean trialRunning;

  private AgentSession(
      Transport transport,
      AgentScript script,
      String remotePath,
      Transport.Channel channel,
      RequestTimer timer) {
    this.transport = transport;
    this.script = script;
    this.remotePath = remotePath;
    this.channel = new ServeChannel(transport.host(), channel, timer);
  }

  /** Ships the agent to the host when its cached copy is missing or differs, then starts it. */
  public static AgentSession start(Transport transport, AgentScript script) {
    return start(transport, script, RequestTimer.NONE);
  }

  /** {@link #start(Transport, AgentScript)}, telling {@code timer} how long each request took. */
  public static AgentSession start(Transport transport, AgentScript script, RequestTimer timer) {
    String path = AgentInstaller.install(transport, script);
    try {
      return new AgentSession(
          transport, script, path, transport.open(AgentInstaller.exec(script, "serve")), timer);
    } catch (IOException e) {
      throw new AgentException(transport.host(), "cannot start the agent: " + e.getMessage(), e);
    }
  }

  /**
   * Restores the host's journal with a separate one-shot agent process (no lock, no long-lived
   * channel): after a crash, while a stale agent may still hold the lock.
   */
  public static RestoreResult restoreOneShot(Transport transport, AgentScript script) {
    return restoreOneShot(transport, script, false);
  }

  /**
   * {@link #restoreOneShot(Transport, AgentScript)}; with {@code discard}, journal lines whose
   * write fails are dropped instead of kept ({@code tunelab restore --discard}).
   */
  public static RestoreResult restoreOneShot(
      Transport transport, AgentScript script, boolean discard) {
    AgentInstaller.install(transport, script);
    byte[] payload = discard ? "discard\n".getBytes(StandardCharsets.UTF_8) : new byte[0];
    return RestoreResult.from(
        oneShot(transport, script, AgentVerb.RESTORE, payload, ONE_SHOT_TIMEOUT));
  }

  public String host() {
    return transport.host();
  }

  /**
   * False once the session can never answer again: a request failed or timed out, the agent exited,
   * or the connection to its host was lost.
   */
  public boolean isOpen() {
    return channel.isOpen();
  }

  /** Where the agent script lives on the host. */
  public String remotePath() {
    return remotePath;
  }

  /** The agent's protocol version and pid. */
  public Hello hello() {
    return Hello.from(require(AgentVerb.HELLO, List.of(), FACTS_TIMEOUT));
  }

  /** Kernel, boot id, CPUs, memory, uid, journal presence and block devices. */
  public Facts facts() {
    return Facts.from(require(AgentVerb.FACTS, List.of(), FACTS_TIMEOUT));
  }

  /**
   * Reads {@code paths}: path to whether it exists and is writable, its content, and the file it
   * leads to when symlinks make that another path.
   */
  public Map<String, ReadResult> read(List<String> paths) {
    Map<String, ReadResult> results = new LinkedHashMap<>();
    if (paths.isEmpty()) {
      return results;
    }
    Answer answer = require(AgentVerb.READ, paths, READ_TIMEOUT);
    for (String line : answer.lines()) {
      String[] row = Answer.fields(line, 3);
      if (row[0].equals("resolved")) {
        ReadResult read = results.get(row[1]);
        if (read == null || !row[2].startsWith("/")) {
          throw answer.malformed(line);
        }
        results.put(row[1], read.at(row[2]));
        continue;
      }
      ReadResult.State state =
          switch (row[0]) {
            case "rw" -> ReadResult.State.RW;
            case "ro" -> ReadResult.State.RO;
            case "missing" -> ReadResult.State.MISSING;
            default -> throw answer.malformed("unknown read state '" + row[0] + "'");
          };
      results.put(row[1], new ReadResult(state, state == ReadResult.State.MISSING ? "" : row[2]));
    }
    return results;
  }

  /**
   * Lists the directories {@code dirs} (knob directories, confined as {@link #read}'s paths): each
   * directory that exists to its entries' names; a missing one is left out.
   */
  public Map<String, List<String>> list(List<String> dirs) {
    Map<String, List<String>> entries = new LinkedHashMap<>();
    if (dirs.isEmpty()) {
      return entries;
    }
    Answer answer = require(AgentVerb.LIST, dirs, READ_TIMEOUT);
    for (String line : answer.lines()) {
      String[] row = Answer.fields(line, 3);
      switch (row[0]) {
        case "entry" -> entries.computeIfAbsent(row[1], d -> new ArrayList<>()).add(row[2]);
        case "missing" -> {}
        default -> throw answer.malformed("unknown list line '" + row[0] + "'");
      }
    }
    return entries;
  }

  /**
   * The host's health figures; with {@code cursor} (from an earlier snapshot, null for none) also
   * the kernel's lines logged since.
   */
  public Health health(String cursor) {
    return Health.from(
        require(
            AgentVerb.HEALTH,
            cursor == null ? List.of() : List.of("cursor\t" + cursor),
            READ_TIMEOUT));
  }

  /**
   * {@link #health(String)}, and {@code checks} (knob paths) read back in the same request: the
   * after-snapshot of a host that takes no part in a trial's processes or monitors.
   */
  public HealthReading health(String cursor, List<String> checks) {
    List<String> payload = new ArrayList<>();
    if (cursor != null) {
      payload.add("cursor\t" + cursor);
    }
    checks.forEach(c -> payload.add("check\t" + c));
    Answer answer = require(AgentVerb.HEALTH, payload, READ_TIMEOUT);
    return new HealthReading(Health.from(answer), KnobReadBack.of(answer));
  }

  /** What on the host makes a benchmark noisy, as the agent's {@code noise} reads it. */
  public NoiseFigures noise() {
    return NoiseFigures.from(require(AgentVerb.NOISE, List.of(), READ_TIMEOUT));
  }

  /** Journals, writes and reads back as {@code lines} say; a failed write is in the result. */
  public ApplyResult apply(List<ApplyLine> lines) {
    return apply(lines, false);
  }

  /**
   * {@link #apply(List)}; with {@code health}, the answer also carries the host's health figures
   * taken after the writes ({@link ApplyResult#before()}): the before-snapshot of a trial whose
   * processes and monitors are on other hosts.
   */
  public ApplyResult apply(List<ApplyLine> lines, boolean health) {
    List<String> payload = new ArrayList<>(ApplyPayload.of(lines));
    if (health) {
      payload.add("health");
    }
    return ApplyResult.from(outcome(AgentVerb.APPLY, payload, PHASE_TIMEOUT));
  }

  /** Writes every journaled original back; a failed write is in the result. */
  public RestoreResult restore() {
    return RestoreResult.from(outcome(AgentVerb.RESTORE, List.of(), RESTORE_TIMEOUT));
  }

  /** The journal of originals, in restore order. */
  public List<JournalEntry> journal() {
    return JournalEntry.from(require(AgentVerb.JOURNAL, List.of(), FACTS_TIMEOUT));
  }

  /**
   * Starts {@code jobs} together and waits for all of them; jobs still running after {@code limit}
   * are killed by the agent (exit status 124).
   */
  public RunResult run(List<ProcessPlan> jobs, Duration limit) {
    return run(jobs, limit, limit.plus(RUN_GRACE));
  }

  /** {@link #run(List, Duration)}, giving up on the answer after {@code wait}. */
  RunResult run(List<ProcessPlan> jobs, Duration limit, Duration wait) {
    List<String> payload = new ArrayList<>();
    payload.add("timeout\t" + TrialRequest.seconds(limit));
    for (ProcessPlan job : jobs) {
      payload.add("job\t" + job.name());
      job.argv().forEach(a -> payload.add("arg\t" + a));
    }
    RunResult result = RunResult.from(outcome(AgentVerb.RUN, payload, wait));
    if (result.jobs().size() != jobs.size()) {
      throw new AgentException(
          host(),
          "'run' reported "
              + result.jobs().size()
              + " of "
              + jobs.size()
              + " jobs"
              + channel.stderrSuffix());
    }
    return result;
  }

  /**
   * Forks a trial's processes and monitors on this host and returns once every process waits at the
   * barrier; nothing runs until {@link #releaseTrial}. Then {@link #awaitTrial} (without a release
   * it calls the trial off) and, for a trial with monitors, {@link #endTrial} must follow. Returns
   * the host's health when the trial arrived, or null unless the request asks for it.
   */
  public Health startTrial(TrialRequest request) {
    Answer answer = require(AgentVerb.START, request.payload(), PHASE_TIMEOUT);
    startedLimit = request.limit();
    return Health.in(answer, "before");
  }

  /**
   * Starts, releases and awaits a trial in one request, for a trial whose processes and monitors
   * are all on this host: no other host's processes to wait for at a barrier. Returns what they
   * did, or null without sending anything when {@code stopping} says so (Ctrl-C came first).
   */
  public TrialReport runTrial(TrialRequest request, BooleanSupplier stopping) {
    trialRunning = true;
    try {
      if (stopping.getAsBoolean()) {
        return null;
      }
      return TrialReport.from(
          outcome(AgentVerb.RUN, request.payload(), request.limit().plus(RUN_GRACE)));
    } finally {
      trialRunning = false;
    }
  }

  /** Opens the barrier: the started processes and monitors run now. Answers at once. */
  public void releaseTrial() {
    trialRunning = true;
    require(AgentVerb.GO, List.of(), FACTS_TIMEOUT);
  }

  /**
   * Waits for the started trial's processes on this host to end and returns what they did. A trial
   * with monitors goes on (they sample until the other hosts' processes have ended too) until
   * {@link #endTrial}; one without ends here.
   */
  public TrialReport awaitTrial() {
    Duration limit = startedLimit == null ? PHASE_TIMEOUT : startedLimit;
    try {
      return TrialReport.from(outcome(AgentVerb.WAIT, List.of(), limit.plus(RUN_GRACE)));
    } finally {
      trialRunning = false;
    }
  }

  /**
   * Stops the started trial's monitors and ends it: returns what they printed, and what its
   * processes did unless {@link #awaitTrial} returned that already.
   */
  public TrialReport endTrial() {
    Duration limit = startedLimit == null ? PHASE_TIMEOUT : startedLimit;
    startedLimit = null;
    try {
      return TrialReport.from(outcome(AgentVerb.STOP, List.of(), limit.plus(RUN_GRACE)));
    } finally {
      trialRunning = false;
    }
  }

  /** Syncs, then drops the page cache, dentries and inodes (needs root). */
  public void dropCaches() {
    require(AgentVerb.DROP_CACHES, List.of(), PHASE_TIMEOUT);
  }

  /** Writes dirty pages back. */
  public void sync() {
    require(AgentVerb.SYNC, List.of(), PHASE_TIMEOUT);
  }

  /**
   * Kills the workload of the running {@code run} from a separate one-shot agent process, since the
   * session's own channel is busy waiting for that run. Returns the pids killed.
   */
  public List<Long> cancel() {
    List<Long> killed = cancelOnce();
    // A cancel finds nothing while the trial's request is still on its way to the agent (the
    // agent then clears the mark for the trial it begins) or while a released process is between
    // its last look at the mark and its start: asked again until the trial's answer comes.
    long until = System.nanoTime() + CANCEL_RETRIES.toNanos();
    while (killed.isEmpty() && trialRunning && System.nanoTime() < until) {
      try {
        Thread.sleep(CANCEL_AGAIN.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      if (trialRunning) {
        killed = cancelOnce();
      }
    }
    return killed;
  }

  private List<Long> cancelOnce() {
    Answer answer = oneShot(transport, script, AgentVerb.CANCEL, new byte[0], CANCEL_TIMEOUT);
    List<Long> killed = new ArrayList<>();
    for (String[] row : answer.rows("killed", 2)) {
      try {
        killed.add(Long.parseLong(row[1]));
      } catch (NumberFormatException e) {
        throw answer.malformed("killed " + row[1]);
      }
    }
    return killed;
  }

  /** Stale answers the session discarded, for tests. */
  long discardedAnswers() {
    return channel.discarded();
  }

  /** An answer whose status must be 0. */
  private Answer require(AgentVerb verb, List<String> payload, Duration wait) {
    Answer answer = channel.exchange(verb, payload, wait);
    if (!answer.ok()) {
      throw failed(answer);
    }
    return answer;
  }

  /** An answer whose status may be 1 (some item failed) but not 2 (bad request) or 3 (refused). */
  private Answer outcome(AgentVerb verb, List<String> payload, Duration wait) {
    Answer answer = channel.exchange(verb, payload, wait);
    if (answer.status() > 1) {
      throw failed(answer);
    }
    return answer;
  }

  private AgentException failed(Answer answer) {
    return new AgentException(
        host(),
        "'" + answer.verb() + "' failed (status " + answer.status() + ")" + channel.stderrSuffix());
  }

  private static Answer oneShot(
      Transport transport, AgentScript script, AgentVerb verb, byte[] payload, Duration timeout) {
    try {
      Transport.ExecResult result =
          transport.exec(AgentInstaller.exec(script, verb.wire()), payload, timeout);
      // LF alone ends a line, as on the serve channel: a CR is part of the line it is in.
      String text = result.stdoutText();
      List<String> lines =
          text.isEmpty() ? List.of() : List.of(text.replaceFirst("\n$", "").split("\n", -1));
      if (result.exitCode() != 0 && lines.isEmpty()) {
        throw new AgentException(
            transport.host(), "'" + verb + "' failed: " + result.stderrText().trim());
      }
      return new Answer(transport.host(), verb, result.exitCode(), lines);
    } catch (IOException e) {
      throw new AgentException(transport.host(), "'" + verb + "' failed: " + e.getMessage(), e);
    }
  }

  /** Closes the agent's stdin; the agent exits and releases its lock. */
  @Override
  public void close() {
    channel.close();
  }
}
