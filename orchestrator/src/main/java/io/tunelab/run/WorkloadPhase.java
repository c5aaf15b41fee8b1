package io.tunelab.run;

import io.tunelab.agent.MonitorReport;
import io.tunelab.agent.ProcessReport;
import io.tunelab.agent.Scheduling;
import io.tunelab.agent.TrialMonitor;
import io.tunelab.agent.TrialProcess;
import io.tunelab.agent.TrialReport;
import io.tunelab.agent.TrialRequest;
import io.tunelab.store.MonitorSample;
import io.tunelab.store.ProcessRecord;
import io.tunelab.store.TrialOutput;
import io.tunelab.trace.Phase;
import io.tunelab.trace.PhaseTrace;
import io.tunelab.workload.FioOutput;
import io.tunelab.workload.JobPlan;
import io.tunelab.workload.JobResult;
import io.tunelab.workload.Measurements;
import io.tunelab.workload.MonitorOutput;
import io.tunelab.workload.MonitorPlan;
import io.tunelab.workload.MonitorRow;
import io.tunelab.workload.Parser;
import io.tunelab.workload.ProcessPlan;
import io.tunelab.workload.Sample;
import io.tunelab.workload.Stopped;
import io.tunelab.workload.WorkloadPlan;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The run phase of a trial: every job's processes on the host of its role and every monitor on its
 * roles' hosts, started together ({@link TrialJobs}); then what they did as samples, process
 * records, monitor rows and kept output, or the first process's own reason to fail the trial.
 */
final class WorkloadPhase {
  /** The fio JSON kept per process. */
  static final String FIO_JSON = "fio-json";

  private final Hosts hosts;
  private final WorkloadPlan plan;
  private final List<MonitorPlan> monitors;
  private final Duration timeout;
  private final PhaseTrace trace;
  private final Map<String, List<String>> checks;

  /**
   * @param checks per host, the knob paths its agent reads back once the trial has ended there
   */
  WorkloadPhase(
      Hosts hosts,
      WorkloadPlan plan,
      List<MonitorPlan> monitors,
      Duration timeout,
      PhaseTrace trace,
      Map<String, List<String>> checks) {
    this.trace = trace;
    this.checks = checks;
    this.hosts = hosts;
    this.plan = plan;
    this.monitors = monitors;
    this.timeout = plan.timeout() != null ? plan.timeout() : timeout;
  }

  /**
   * What the phase produced; {@code failure} is null when the trial succeeded (then {@code samples}
   * holds its samples); {@code reports} holds what each host of the trial answered, its health
   * snapshots with it.
   */
  record Result(
      String failure,
      List<Sample> samples,
      double seconds,
      List<ProcessRecord> processes,
      List<MonitorSample> monitorRows,
      List<TrialOutput> outputs,
      Map<String, TrialReport> reports) {}

  /** The hosts that run a process or a monitor of {@code plan}. */
  static Set<String> hostsOf(Hosts hosts, WorkloadPlan plan, List<MonitorPlan> monitors) {
    Set<String> in = new LinkedHashSet<>();
    plan.jobs().forEach(j -> in.add(hosts.hostOf(j.role())));
    monitors.forEach(m -> in.add(hosts.hostOf(m.role())));
    return in;
  }

  Result run() {
    Map<String, List<TrialProcess>> processes = new LinkedHashMap<>();
    for (JobPlan job : plan.jobs()) {
      List<TrialProcess> list =
          processes.computeIfAbsent(hosts.hostOf(job.role()), h -> new ArrayList<>());
      for (ProcessPlan p : job.processes()) {
        list.add(
            new TrialProcess(
                p.name(),
                p.argv(),
                p.stdinText(),
                job.ionice(),
                job.nice(),
                job.cpus(),
                job.parser() == Parser.FIO || job.parser() == Parser.METRICS,
                job.duration(),
                job.timeout()));
      }
    }
    // One run per host and command: two roles on one host share a monitor's output.
    Map<String, Map<List<String>, String>> agentNames = new LinkedHashMap<>();
    Map<String, List<TrialMonitor>> monitorsByHost = new LinkedHashMap<>();
    for (MonitorPlan m : monitors) {
      String host = hosts.hostOf(m.role());
      Map<List<String>, String> names =
          agentNames.computeIfAbsent(host, h -> new LinkedHashMap<>());
      if (names.putIfAbsent(m.argv(), m.name()) == null) {
        monitorsByHost
            .computeIfAbsent(host, h -> new ArrayList<>())
            .add(new TrialMonitor(m.name(), m.argv()));
      }
    }
    Set<String> all = new LinkedHashSet<>(processes.keySet());
    all.addAll(monitorsByHost.keySet());
    Map<String, TrialRequest> requests = new LinkedHashMap<>();
    for (String host : all) {
      requests.put(
          host,
          new TrialRequest(
                  processes.getOrDefault(host, List.of()),
                  monitorsByHost.getOrDefault(host, List.of()),
                  plan.duration(),
                  timeout,
                  plan.stopGrace())
              .withHealth(checks.getOrDefault(host, List.of())));
    }
    long t = trace.start();
    Map<String, TrialReport> reports = TrialJobs.run(hosts, requests, processes.keySet());
    trace.phase(Phase.WORKLOAD, t);
    t = trace.start();
    Result result = evaluate(reports, agentNames);
    trace.phase(Phase.PARSE, t);
    return result;
  }

  private Result evaluate(
      Map<String, TrialReport> reports, Map<String, Map<List<String>, String>> agentNames) {
    List<String> failures = new ArrayList<>();
    List<ProcessRecord> records = new ArrayList<>();
    List<TrialOutput> outputs = new ArrayList<>();
    List<JobResult> results = new ArrayList<>();
    double seconds = 0;
    for (JobPlan job : plan.jobs()) {
      String host = hosts.hostOf(job.role());
      Map<String, ProcessReport> byName = new LinkedHashMap<>();
      reports.get(host).processes().forEach(p -> byName.put(p.result().name(), p));
      for (ProcessPlan p : job.processes()) {
        ProcessReport report = byName.get(p.name());
        if (report == null) {
          failures.add("host " + host + ": " + p.name() + ": no result from the host");
          continue;
        }
        JobResult r = report.result();
        Scheduling eff = report.effective();
        results.add(r);
        seconds = Math.max(seconds, r.hostSeconds());
        records.add(
            new ProcessRecord(
                job.name(),
                p.name(),
                job.role(),
                host,
                eff.ionice(),
                eff.nice(),
                eff.cpus(),
                r.exitCode(),
                r.hostSeconds(),
                report.stopped() != Stopped.NO));
        if (job.parser() == Parser.FIO) {
          String json = FioOutput.document(r.stdout());
          if (json != null) {
            outputs.add(new TrialOutput(p.name(), FIO_JSON, json));
          }
        }
        String why = problem(job, report);
        if (why != null) {
          failures.add("host " + host + ": " + p.name() + " " + why);
        }
      }
    }
    List<Sample> monitorSamples = new ArrayList<>();
    List<MonitorSample> rows = new ArrayList<>();
    for (MonitorPlan m : monitors) {
      String host = hosts.hostOf(m.role());
      String agentName = agentNames.get(host).get(m.argv());
      MonitorReport report =
          reports.get(host).monitors().stream()
              .filter(r -> r.name().equals(agentName))
              .findFirst()
              .orElse(null);
      if (report == null || !report.ranToTheEnd()) {
        String why =
            report == null
                ? "reported nothing"
                : "exited " + report.exitCode() + lastLine(report.stderr());
        failures.add("host " + host + ": monitor " + m.name() + " " + why);
        continue;
      }
      MonitorOutput output = MonitorOutput.parse(m, report.stdout(), report.counters());
      if (agentName.equals(m.name())) {
        for (MonitorRow row : output.rows()) {
          rows.add(
              new MonitorSample(host, m.tool(), row.device(), row.t(), row.metric(), row.value()));
        }
      }
      monitorSamples.addAll(Measurements.monitor(m, output));
    }
    List<Sample> samples = List.of();
    if (failures.isEmpty()) {
      try {
        samples = new ArrayList<>(Measurements.of(plan, results));
        samples.addAll(monitorSamples);
      } catch (IllegalStateException e) {
        failures.add(e.getMessage());
      }
    }
    String failure = failures.isEmpty() ? null : failures.get(0);
    return new Result(failure, samples, seconds, records, rows, outputs, reports);
  }

  /** The process's own reason to fail the trial, or null. */
  private String problem(JobPlan job, ProcessReport report) {
    JobResult r = report.result();
    if (r.exitCode() == 124 && report.stopped() != Stopped.KILLED) {
      String which =
          job.timeout() != null
              ? "workload.jobs." + job.name() + ".timeout"
              : plan.timeout() != null ? "workload.timeout" : "tunelab's default timeout";
      Duration limit = job.timeout() != null ? job.timeout() : timeout;
      return "timed out: still running after " + seconds(limit) + " (" + which + ")";
    }
    String why = Measurements.problem(job, r, report.stopped());
    if (why == null && report.stdoutDropped() > 0) {
      return "printed more than the agent returns ("
          + report.stdoutDropped()
          + " stdout lines cut): its output cannot be read whole";
    }
    return why;
  }

  private static String seconds(Duration d) {
    return BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString() + " s";
  }

  private static String lastLine(List<String> lines) {
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (!lines.get(i).isBlank()) {
        return ": " + lines.get(i).trim();
      }
    }
    return "";
  }
}
