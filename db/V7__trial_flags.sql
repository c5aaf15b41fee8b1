-- tunelab schema, version 7: health flags per trial.
--
-- trial_flags: what each host's health checks found during a trial, one row per flag and
-- host. flag: dmesg (the kernel logged lines of level warning or worse; detail holds the
-- first ones) | knob_drift (a knob read after the trial differs from what was applied) |
-- swap (pswpin/pswpout rose) | throttle (thermal throttle counters rose) | cpufreq (a
-- governor or frequency limit changed) | reboot (the boot id changed). Only the trial's last
-- attempt's flags are here; an earlier attempt is in trial_attempts.
--
-- experiments.on_flag: what the matrix's on_flag says of flagged trials: keep (in the
-- statistics, warned about) | rerun (run again once; the second run counts, flagged or not)
-- | exclude (left out of cell_stats).

CREATE TABLE trial_flags (
  trial_id INTEGER NOT NULL REFERENCES trials (id) ON DELETE CASCADE,
  host     TEXT    NOT NULL,
  flag     TEXT    NOT NULL
           CHECK (flag IN ('dmesg', 'knob_drift', 'swap', 'throttle', 'cpufreq', 'reboot')),
  detail   TEXT    NOT NULL
);
CREATE INDEX trial_flags_by_trial ON trial_flags (trial_id);

ALTER TABLE experiments ADD COLUMN on_flag TEXT NOT NULL DEFAULT 'keep'
  CHECK (on_flag IN ('keep', 'rerun', 'exclude'));
