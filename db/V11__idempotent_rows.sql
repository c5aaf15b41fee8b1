-- tunelab schema, version 11: rows a retried commit could insert twice carry a key, and the rows
-- whose order matters carry it in a column.
--
-- A transaction runs again whole when the database could not take it (a locked SQLite file, a
-- PostgreSQL server restarted or hung). When its COMMIT reached the server but the answer was
-- lost, the second try must insert nothing again: the events, boots and attempts it writes carry
-- an idempotency key, made once per write by the controller (NULL in rows written before).
-- samples, variables and trial_flags keep the order their rows were written in, per trial (per
-- experiment for variables), in pos: readers sort by it on both engines.

ALTER TABLE events ADD COLUMN idem TEXT;
CREATE UNIQUE INDEX events_by_key ON events (idem);
ALTER TABLE boots ADD COLUMN idem TEXT;
CREATE UNIQUE INDEX boots_by_key ON boots (idem);
ALTER TABLE trial_attempts ADD COLUMN idem TEXT;
CREATE UNIQUE INDEX trial_attempts_by_key ON trial_attempts (idem);

ALTER TABLE samples ADD COLUMN pos INTEGER NOT NULL DEFAULT 0;
UPDATE samples SET pos = ${rowid};
DROP INDEX samples_by_trial;
CREATE INDEX samples_by_trial ON samples (trial_id, job, metric, pos);

ALTER TABLE variables ADD COLUMN pos INTEGER NOT NULL DEFAULT 0;
UPDATE variables SET pos = ${rowid};

ALTER TABLE trial_flags ADD COLUMN pos INTEGER NOT NULL DEFAULT 0;
UPDATE trial_flags SET pos = ${rowid};
