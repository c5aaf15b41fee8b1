-- tunelab schema, version 3: every attempt of a trial.
-- A trial that a lost host interrupted (its connection dropped, its agent died or did not
-- answer in time, it rebooted) runs again after a reconnect; each attempt is one row here,
-- and only the last one's status and samples count: they are the trial's own row in
-- `trials`. A migration runs inside one transaction: no BEGIN/COMMIT here.

CREATE TABLE trial_attempts (
  trial_id    INTEGER NOT NULL REFERENCES trials (id) ON DELETE CASCADE,
  attempt     INTEGER NOT NULL,                    -- 1, 2 … counted over every run and resume
  started_at  TEXT    NOT NULL,
  finished_at TEXT    NOT NULL,
  status      TEXT    NOT NULL CHECK (status IN ('ok', 'failed', 'lost')),
  error       TEXT,                                -- why it failed or was lost; host events
  PRIMARY KEY (trial_id, attempt)
);
