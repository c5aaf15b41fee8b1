-- tunelab schema, version 2: what a trial of several jobs leaves besides its samples.
-- Every interval row of the monitors, how each workload process ran, and tool output kept
-- for later questions (fio's JSON). Public SQL surface, documented in docs/sql.md.
-- A migration runs inside one transaction: no BEGIN/COMMIT here.

-- Every value of every interval row of every monitor (vmstat, iostat, mpstat) during the
-- workload. The per-trial means are ordinary samples (job `vmstat@client`).
CREATE TABLE monitor_samples (
  trial_id INTEGER NOT NULL REFERENCES trials (id) ON DELETE CASCADE,
  host     TEXT    NOT NULL,
  monitor  TEXT    NOT NULL,                       -- vmstat | iostat | mpstat
  device   TEXT    NOT NULL DEFAULT '',            -- iostat's device; '' for a whole-host row
  t        REAL    NOT NULL,                       -- seconds since the monitor started
  metric   TEXT    NOT NULL,                       -- us, sy, id, wa, r_per_s, util_pct …
  value    REAL
);
CREATE INDEX monitor_samples_by_trial
  ON monitor_samples (trial_id, host, monitor, device, metric, t);

-- One row per workload process of a trial: where it ran, the scheduling it really had
-- (read back from the running process), and how it ended.
CREATE TABLE trial_processes (
  trial_id  INTEGER NOT NULL REFERENCES trials (id) ON DELETE CASCADE,
  job       TEXT    NOT NULL,                      -- writer
  process   TEXT    NOT NULL,                      -- writer.0: the job of its own samples
  role      TEXT    NOT NULL,
  host      TEXT    NOT NULL,
  ionice    TEXT,                                  -- as `ionice -p` reads it: idle, best-effort: prio 7 …
  nice      INTEGER,
  cpus      TEXT,                                  -- CPU list as `taskset -p` reads it
  exit_code INTEGER NOT NULL,
  seconds   REAL,                                  -- its run time, timed on its host
  stopped   INTEGER NOT NULL CHECK (stopped IN (0, 1))  -- 1: `duration` stopped it
);
CREATE INDEX trial_processes_by_trial ON trial_processes (trial_id, job, process);

-- Raw tool output kept with a trial (fio's JSON document), gzip-compressed: write `data`
-- to a file and `gzip -d` it, or gzip.decompress() it in Python (docs/sql.md).
CREATE TABLE trial_outputs (
  trial_id INTEGER NOT NULL REFERENCES trials (id) ON DELETE CASCADE,
  process  TEXT    NOT NULL,                       -- reader.0
  kind     TEXT    NOT NULL,                       -- fio-json
  data     BLOB    NOT NULL                        -- the text, UTF-8, gzip-compressed
);
CREATE INDEX trial_outputs_by_trial ON trial_outputs (trial_id, process, kind);
