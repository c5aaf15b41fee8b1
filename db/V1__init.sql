-- tunelab schema, version 1.
-- The tables and views below are the public SQL surface documented in docs/sql.md:
-- columns may be added by later migrations, existing ones keep their name and meaning.
-- Timestamps are ISO-8601 UTC text (2024-05-01T12:34:56.789Z); booleans are 0/1.
-- A migration runs inside one transaction: no BEGIN/COMMIT here. The same files build the
-- PostgreSQL store: ${…} placeholders and the column types are spelled per engine there.

CREATE TABLE experiments (
  id           ${id_never_reused},  -- never reused, even after a delete
  name         TEXT    NOT NULL,
  description  TEXT,
  status       TEXT    NOT NULL DEFAULT 'planned'
               CHECK (status IN ('planned', 'running', 'finished', 'failed', 'interrupted')),
  started_at   TEXT,
  finished_at  TEXT,
  matrix_yaml  TEXT    NOT NULL,
  matrix_path  TEXT,
  tool_version TEXT,
  order_mode   TEXT    NOT NULL,                   -- sequential | shuffle
  seed         INTEGER NOT NULL,
  repeat       INTEGER NOT NULL,
  warmup       INTEGER NOT NULL,
  created_at   TEXT    NOT NULL
);
CREATE INDEX experiments_by_name ON experiments (name, id);

CREATE TABLE hosts (
  experiment_id  INTEGER NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
  role           TEXT    NOT NULL,
  host           TEXT    NOT NULL,
  kernel_release TEXT,
  boot_id        TEXT,
  cpus           INTEGER,
  mem_kb         INTEGER,
  facts_json     TEXT    NOT NULL,
  recorded_at    TEXT    NOT NULL,
  PRIMARY KEY (experiment_id, role)
);

-- Every fact of every host, one row each, so that facts can be joined and compared.
CREATE TABLE host_facts (
  experiment_id INTEGER NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
  host          TEXT    NOT NULL,
  key           TEXT    NOT NULL,
  value         TEXT,
  PRIMARY KEY (experiment_id, host, key)
);

CREATE TABLE variables (
  experiment_id INTEGER NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
  name          TEXT    NOT NULL,
  value         TEXT    NOT NULL,
  PRIMARY KEY (experiment_id, name)
);

CREATE TABLE cells (
  id            ${id},
  experiment_id INTEGER NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
  ordinal       INTEGER NOT NULL,                  -- 1-based, in expansion order
  label         TEXT    NOT NULL,
  UNIQUE (experiment_id, ordinal)
);

CREATE TABLE cell_params (
  cell_id INTEGER NOT NULL REFERENCES cells (id) ON DELETE CASCADE,
  name    TEXT    NOT NULL,                        -- the axis name as written
  value   TEXT    NOT NULL,
  pos     INTEGER NOT NULL,                        -- 1-based, in axis order
  PRIMARY KEY (cell_id, name)
);

CREATE TABLE cell_knobs (
  cell_id INTEGER NOT NULL REFERENCES cells (id) ON DELETE CASCADE,
  knob    TEXT    NOT NULL,                        -- role-qualified, template as written
  value   TEXT    NOT NULL,                        -- requested value, `default` allowed
  pos     INTEGER NOT NULL,
  PRIMARY KEY (cell_id, knob)
);

CREATE TABLE trials (
  id               ${id},
  experiment_id    INTEGER NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
  cell_id          INTEGER NOT NULL REFERENCES cells (id) ON DELETE CASCADE,
  rep              INTEGER NOT NULL,
  seq              INTEGER NOT NULL,               -- place in run order, from 1
  warmup           INTEGER NOT NULL DEFAULT 0 CHECK (warmup IN (0, 1)),
  status           TEXT    NOT NULL DEFAULT 'pending'
                   CHECK (status IN ('pending', 'running', 'ok', 'failed', 'skipped')),
  started_at       TEXT,
  finished_at      TEXT,
  error            TEXT,
  workload_seconds REAL,
  UNIQUE (experiment_id, seq)
);
CREATE INDEX trials_by_cell ON trials (cell_id, rep);

CREATE TABLE samples (
  trial_id INTEGER NOT NULL REFERENCES trials (id) ON DELETE CASCADE,
  job      TEXT    NOT NULL,                       -- dd.0, dd.1 … or `all`, the aggregate
  metric   TEXT    NOT NULL,
  value    REAL,
  unit     TEXT
);
CREATE INDEX samples_by_trial ON samples (trial_id, job, metric);

CREATE TABLE settings (
  trial_id  INTEGER NOT NULL REFERENCES trials (id) ON DELETE CASCADE,
  role      TEXT    NOT NULL,
  host      TEXT    NOT NULL,
  knob      TEXT    NOT NULL,                      -- resolved: block.loop3.read_ahead_kb
  path      TEXT,
  requested TEXT,
  effective TEXT,                                  -- read back after the write
  original  TEXT,                                  -- the value before the experiment
  written   INTEGER NOT NULL CHECK (written IN (0, 1))
);
CREATE INDEX settings_by_trial ON settings (trial_id);

-- Recomputed in the transaction that finishes a trial of the cell, over the cell's
-- trials with status ok and warmup 0.
CREATE TABLE cell_stats (
  cell_id     INTEGER NOT NULL REFERENCES cells (id) ON DELETE CASCADE,
  job         TEXT    NOT NULL,
  metric      TEXT    NOT NULL,
  unit        TEXT,
  n           INTEGER NOT NULL,
  mean        REAL    NOT NULL,
  stddev_pop  REAL    NOT NULL,
  stddev_samp REAL,                                -- NULL when n < 2
  min         REAL    NOT NULL,
  median      REAL    NOT NULL,
  max         REAL    NOT NULL,
  PRIMARY KEY (cell_id, job, metric)
);

-- schema_version (version, name, applied_at) is created and filled by tunelab itself.

CREATE VIEW experiment_progress AS
SELECT e.id AS experiment_id,
       e.name,
       e.status,
       e.created_at,
       e.started_at,
       e.finished_at,
       (SELECT count(*) FROM cells c WHERE c.experiment_id = e.id) AS cells,
       count(t.id) AS trials,
       count(t.id) FILTER (WHERE t.status = 'ok') AS ok,
       count(t.id) FILTER (WHERE t.status = 'failed') AS failed,
       count(t.id) FILTER (WHERE t.status = 'skipped') AS skipped,
       count(t.id) FILTER (WHERE t.status = 'pending') AS pending,
       count(t.id) FILTER (WHERE t.status = 'running') AS running
FROM experiments e
LEFT JOIN trials t ON t.experiment_id = e.id
GROUP BY e.id;

CREATE VIEW cell_results AS
SELECT c.experiment_id,
       e.name AS experiment,
       c.id AS cell_id,
       c.ordinal,
       c.label,
       ${params_json} AS params,
       st.job,
       st.metric,
       st.unit,
       st.n,
       st.mean,
       st.stddev_pop,
       st.stddev_samp,
       st.min,
       st.median,
       st.max,
       CASE WHEN st.mean <> 0 THEN st.stddev_pop / st.mean END AS cv
FROM cell_stats st
JOIN cells c ON c.id = st.cell_id
JOIN experiments e ON e.id = c.experiment_id;

CREATE VIEW trial_samples AS
SELECT t.experiment_id,
       e.name AS experiment,
       c.id AS cell_id,
       c.ordinal,
       c.label,
       ${params_json} AS params,
       t.id AS trial_id,
       t.rep,
       t.seq,
       t.warmup,
       t.status,
       t.started_at,
       s.job,
       s.metric,
       s.value,
       s.unit
FROM samples s
JOIN trials t ON t.id = s.trial_id
JOIN cells c ON c.id = t.cell_id
JOIN experiments e ON e.id = t.experiment_id;

CREATE VIEW trial_settings AS
SELECT t.experiment_id,
       c.id AS cell_id,
       c.ordinal,
       c.label,
       t.id AS trial_id,
       t.rep,
       t.seq,
       t.status,
       s.role,
       s.host,
       s.knob,
       s.path,
       s.requested,
       s.effective,
       s.original,
       s.written
FROM settings s
JOIN trials t ON t.id = s.trial_id
JOIN cells c ON c.id = t.cell_id;
