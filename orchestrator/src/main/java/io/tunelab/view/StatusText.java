package io.tunelab.view;

import io.tunelab.store.ExperimentProgress;
import io.tunelab.store.ExperimentProgress.CurrentTrial;
import io.tunelab.store.ExperimentProgress.Event;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/** The lines {@code tunelab status} prints for a running experiment. */
public final class StatusText {
  private StatusText() {}

  /**
   * Progress, elapsed time, ETA, the current trial and the last event of {@code p} as of {@code
   * now}. The ETA is the mean wall time of the trials that ended so far times the trials left, less
   * what the current trial has taken.
   */
  public static String render(ExperimentProgress p, Instant now) {
    int total = p.trials().total();
    int done = total - p.trials().unfinished();
    StringBuilder out = new StringBuilder();
    out.append("experiment ")
        .append(p.experimentId())
        .append(' ')
        .append(p.name())
        .append(": ")
        .append(p.status())
        .append(", ")
        .append(done)
        .append('/')
        .append(total)
        .append(" trials done (")
        .append(p.trials().failed())
        .append(" failed)\n");
    Instant runStart = instant(p.runStartedAt());
    if (runStart != null) {
      line(out, "elapsed", ago(runStart, now) + " (this run started " + p.runStartedAt() + ")");
    }
    CurrentTrial c = p.current();
    Instant trialStart = c == null ? null : instant(c.startedAt());
    Duration soFar = trialStart == null ? Duration.ZERO : Duration.between(trialStart, now);
    int left = p.trials().unfinished();
    if (p.meanTrialSeconds() == null) {
      line(out, "eta", "? (known once a trial has ended)");
    } else {
      Duration mean = Duration.ofMillis(Math.round(p.meanTrialSeconds() * 1000));
      Duration eta = ProgressLine.eta(mean, 1, left, soFar);
      line(
          out,
          "eta",
          DurationFormat.format(eta)
              + ", about "
              + now.plus(eta).truncatedTo(ChronoUnit.SECONDS)
              + " (mean trial "
              + DurationFormat.format(mean)
              + " × "
              + left
              + " left, less the current one's "
              + DurationFormat.format(soFar)
              + ")");
    }
    if (c == null) {
      line(out, "now", "no trial running");
    } else {
      line(
          out,
          "now",
          "trial "
              + c.seq()
              + "/"
              + total
              + " "
              + c.cellLabel()
              + " rep "
              + c.rep()
              + (c.warmup() ? " (warm-up)" : "")
              + ", started "
              + c.startedAt()
              + (trialStart == null ? "" : " (" + ago(trialStart, now) + " ago)"));
    }
    Event e = p.lastEvent();
    line(
        out,
        "last event",
        e == null
            ? "none"
            : e.at()
                + " "
                + e.kind()
                + (e.host() == null ? "" : " " + e.host())
                + ": "
                + e.message());
    return out.toString();
  }

  private static void line(StringBuilder out, String label, String text) {
    out.append("  ").append(String.format("%-11s", label + ":")).append(' ').append(text);
    out.append('\n');
  }

  private static String ago(Instant then, Instant now) {
    return DurationFormat.format(Duration.between(then, now));
  }

  /** An ISO-8601 instant, or null for none or for text that is not one. */
  public static Instant instant(String iso) {
    try {
      return iso == null ? null : Instant.parse(iso);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
