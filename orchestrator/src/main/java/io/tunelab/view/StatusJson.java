package io.tunelab.view;

import io.tunelab.store.Boot;
import io.tunelab.store.ExperimentProgress;
import io.tunelab.store.ResultTable;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code tunelab status --format json}: every experiment with its counts; a running one with its
 * progress, ETA, current trial, last event and the hosts that are booting.
 */
public final class StatusJson {
  private StatusJson() {}

  /** A running experiment's progress and boots, by experiment id. */
  public record Live(ExperimentProgress progress, List<Boot> booting) {}

  public static String render(ResultTable experiments, Map<Long, Live> live, Instant now) {
    List<Map<String, Object>> list = new ArrayList<>();
    for (List<Object> row : experiments.rows()) {
      Map<String, Object> e = new LinkedHashMap<>();
      for (int i = 0; i < experiments.columns().size(); i++) {
        e.put(experiments.columns().get(i), row.get(i));
      }
      Live l = live.get(((Number) row.get(0)).longValue());
      e.put("progress", l == null ? null : progress(l.progress(), now));
      e.put("booting", l == null ? List.of() : booting(l.booting()));
      list.add(e);
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("experiments", list);
    return PrettyJson.write(doc);
  }

  private static Map<String, Object> progress(ExperimentProgress p, Instant now) {
    Map<String, Object> m = new LinkedHashMap<>();
    int total = p.trials().total();
    m.put("trials", total);
    m.put("done", total - p.trials().unfinished());
    m.put("failed", p.trials().failed());
    m.put("run_started_at", p.runStartedAt());
    m.put("mean_trial_seconds", p.meanTrialSeconds());
    ExperimentProgress.CurrentTrial c = p.current();
    Instant started = c == null ? null : StatusText.instant(c.startedAt());
    Duration soFar = started == null ? Duration.ZERO : Duration.between(started, now);
    if (p.meanTrialSeconds() == null) {
      m.put("eta_seconds", null);
    } else {
      Duration mean = Duration.ofMillis(Math.round(p.meanTrialSeconds() * 1000));
      m.put("eta_seconds", ProgressLine.eta(mean, 1, p.trials().unfinished(), soFar).toSeconds());
    }
    if (c == null) {
      m.put("current", null);
    } else {
      Map<String, Object> t = new LinkedHashMap<>();
      t.put("trial_id", c.trialId());
      t.put("seq", c.seq());
      t.put("cell", c.cellLabel());
      t.put("rep", c.rep());
      t.put("warmup", c.warmup());
      t.put("started_at", c.startedAt());
      m.put("current", t);
    }
    ExperimentProgress.Event ev = p.lastEvent();
    if (ev == null) {
      m.put("last_event", null);
    } else {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("at", ev.at());
      e.put("kind", ev.kind());
      e.put("host", ev.host());
      e.put("message", ev.message());
      m.put("last_event", e);
    }
    return m;
  }

  private static List<Map<String, Object>> booting(List<Boot> boots) {
    List<Map<String, Object>> list = new ArrayList<>();
    for (Boot b : boots) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("host", b.host());
      m.put("release", b.release());
      m.put("method", b.method());
      m.put("since", b.startedAt().toString());
      list.add(m);
    }
    return list;
  }
}
