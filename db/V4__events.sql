-- tunelab schema, version 4: what happened during a run, for `tunelab status` in another
-- process and for SQL. One row per event: the run's start, every trial's end, host events
-- (a leftover journal restored, a host restored), warnings and the error that ended a run.

CREATE TABLE events (
  id            ${id},
  experiment_id INTEGER NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
  at            TEXT    NOT NULL,
  kind          TEXT    NOT NULL,                  -- run | trial | host | message | error
  host          TEXT,                              -- for kind host, else NULL
  message       TEXT    NOT NULL
);
CREATE INDEX events_by_experiment ON events (experiment_id, id);
