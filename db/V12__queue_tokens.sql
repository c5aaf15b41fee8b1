-- tunelab schema, version 12: a queue a team can operate, the files an experiment needs, and the
-- hosts it ran on.
--
-- Every claim of a queue row takes the next token; the worker's renewals, each of its transactions
-- on the experiment and its release name the token, and change nothing once it is not the row's:
-- a worker whose lease ran out while another took the experiment over writes nothing more. A row
-- refused by --max-claims claims in a row is held (reason says why) until `tunelab queue release`;
-- `tunelab queue cancel` ends a row for good. The state CHECK changes, so the table is built anew
-- (SQLite cannot alter a CHECK); nothing references it.

CREATE TABLE queue_v12 (
  experiment_id INTEGER PRIMARY KEY REFERENCES experiments (id) ON DELETE CASCADE,
  queue         TEXT    NOT NULL,
  state         TEXT    NOT NULL DEFAULT 'queued'
                CHECK (state IN ('queued', 'claimed', 'done', 'held', 'cancelled')),
  submitted_at  TEXT    NOT NULL,
  testbed       TEXT,             -- set by the first claim; only that testbed's workers go on
  worker        TEXT,             -- the worker that holds or last held it
  claimed_at    TEXT,
  lease_until   INTEGER,          -- server clock, ms since the epoch
  claims        INTEGER NOT NULL DEFAULT 0,
  done_at       TEXT,
  token         INTEGER NOT NULL DEFAULT 0,  -- the current claim's; each claim takes the next
  refusals      INTEGER NOT NULL DEFAULT 0,  -- claims in a row that ended refused
  reason        TEXT              -- why it is held or cancelled, or the last refusal
);
INSERT INTO queue_v12 (experiment_id, queue, state, submitted_at, testbed, worker, claimed_at,
                       lease_until, claims, done_at, token)
  SELECT experiment_id, queue, state, submitted_at, testbed, worker, claimed_at, lease_until,
         claims, done_at, claims
  FROM queue;
DROP TABLE queue;
ALTER TABLE queue_v12 RENAME TO queue;
CREATE INDEX queue_by_name ON queue (queue, state, experiment_id);

-- The text of every file an experiment reads besides its matrix (fio job files, the inventory the
-- matrix names), as it was when the experiment was planned: a worker on another machine, or a
-- resume after the file changed, runs what was planned.
CREATE TABLE experiment_files (
  experiment_id INTEGER NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
  path          TEXT    NOT NULL,  -- as the matrix writes it
  kind          TEXT    NOT NULL CHECK (kind IN ('jobfile', 'inventory')),
  content       TEXT    NOT NULL,
  PRIMARY KEY (experiment_id, path)
);

-- The hosts an experiment ran on, per role, as its controller reached them: the inventory's
-- address and port (`local@HOST` for the controller itself) and the SSH host key's fingerprint.
-- A testbed is its hosts, not its name: `restore --db URL` tears down only experiments whose hosts
-- are in its inventory, and a worker refuses a default name another testbed's hosts use.
CREATE TABLE testbed_hosts (
  experiment_id INTEGER NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
  role          TEXT    NOT NULL,
  host          TEXT    NOT NULL,  -- the inventory's name
  address       TEXT    NOT NULL,  -- ADDRESS:PORT, or local@HOST
  host_key      TEXT,              -- SHA256:… of the key the host presented; NULL for local
  PRIMARY KEY (experiment_id, role)
);
