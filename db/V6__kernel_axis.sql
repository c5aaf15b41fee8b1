-- tunelab schema, version 6: the kernel as an axis.
--
-- trial_hosts: what each host ran during a trial, one row per host (not per role: a host that
-- plays two roles is one kernel). Between-boot spread is the spread of the per-boot means,
-- grouped by boot_id.
--
-- boots: every boot tunelab asked a host for, with the state it reached, so that `status`
-- shows a host that is booting and `resume` after a killed controller knows where it is.
-- state: booting (asked, not yet back) | up (back on the requested release, new boot id) |
-- failed (not back in time, or back on another release; error says which).
-- reason: start (no boot: the release and boot id the host had when the experiment started,
-- which `default` means and the run boots back to) | kernel (a trial needs another release, or
-- another of its `boots:`) | power-cycle (not back in time) | home (back to the start release).
-- round: which of the `boots:` of its release this boot serves (1 for start and home).

CREATE TABLE trial_hosts (
  trial_id       INTEGER NOT NULL REFERENCES trials (id) ON DELETE CASCADE,
  host           TEXT    NOT NULL,
  kernel_release TEXT    NOT NULL,
  boot_id        TEXT    NOT NULL,
  cmdline        TEXT    NOT NULL,
  PRIMARY KEY (trial_id, host)
);

CREATE TABLE boots (
  id             ${id},
  experiment_id  INTEGER NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
  host           TEXT    NOT NULL,
  release        TEXT    NOT NULL,                 -- the release asked for
  method         TEXT    NOT NULL,                 -- none | kexec | reboot | command | power-cycle
  reason         TEXT    NOT NULL CHECK (reason IN ('start', 'kernel', 'power-cycle', 'home')),
  round          INTEGER NOT NULL DEFAULT 1,
  state          TEXT    NOT NULL CHECK (state IN ('booting', 'up', 'failed')),
  boot_id_before TEXT,
  boot_id_after  TEXT,
  started_at     TEXT    NOT NULL,
  finished_at    TEXT,
  error          TEXT
);
CREATE INDEX boots_by_experiment ON boots (experiment_id, host, id);
