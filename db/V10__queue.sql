-- tunelab schema, version 10: the queue of a database many testbeds share (docs/fleet.md).
--
-- tunelab submit plans an experiment (status planned) and queues it: a row of queue in state
-- queued. A worker claims the first queued row of its queue in one transaction (FOR UPDATE SKIP
-- LOCKED on PostgreSQL), sets state claimed, its name in worker and its lease; it renews the lease
-- while it runs. A claimed row whose lease has passed is claimable again, by a worker of the
-- testbed that first claimed it only: the hosts it left mistuned are that testbed's. Leases are
-- counted on the database server's clock, in milliseconds since the epoch. The row stays, in state
-- done, once the experiment has ended. An SQLite file holds no queue rows: the queue needs a
-- server every controller reaches.

ALTER TABLE experiments ADD COLUMN testbed TEXT;  -- where it ran: the inventory's name or --testbed

CREATE TABLE queue (
  experiment_id INTEGER PRIMARY KEY REFERENCES experiments (id) ON DELETE CASCADE,
  queue         TEXT    NOT NULL,
  state         TEXT    NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'claimed', 'done')),
  submitted_at  TEXT    NOT NULL,
  testbed       TEXT,             -- set by the first claim; only that testbed's workers go on
  worker        TEXT,             -- the worker that holds or last held it
  claimed_at    TEXT,
  lease_until   INTEGER,          -- server clock, ms since the epoch
  claims        INTEGER NOT NULL DEFAULT 0,
  done_at       TEXT
);
CREATE INDEX queue_by_name ON queue (queue, state, experiment_id);

CREATE TABLE workers (
  name          TEXT    PRIMARY KEY,  -- host:pid of the controller
  queue         TEXT    NOT NULL,
  testbed       TEXT    NOT NULL,
  started_at    TEXT    NOT NULL,
  seen_at       TEXT    NOT NULL,     -- its last heartbeat
  lease_until   INTEGER NOT NULL,     -- server clock, ms since the epoch
  experiment_id INTEGER,              -- the experiment it runs, null between two
  state         TEXT    NOT NULL CHECK (state IN ('idle', 'running', 'stopped'))
);
