-- tunelab schema, version 13: the health flag cache.
--
-- trial_flags.flag also admits cache: the block devices of every host together moved less of a
-- direction's bytes than the matrix's cache_flag share (default half) of what the workload says
-- it moved; the page cache, the client's or a server's, served the rest. The flag CHECK changes,
-- so the table is built anew (SQLite cannot alter a CHECK); nothing references it.

CREATE TABLE trial_flags_v13 (
  trial_id INTEGER NOT NULL REFERENCES trials (id) ON DELETE CASCADE,
  host     TEXT    NOT NULL,
  flag     TEXT    NOT NULL
           CHECK (flag IN ('dmesg', 'knob_drift', 'swap', 'throttle', 'cpufreq', 'reboot',
                           'cache')),
  detail   TEXT    NOT NULL,
  pos      INTEGER NOT NULL DEFAULT 0
);
INSERT INTO trial_flags_v13 (trial_id, host, flag, detail, pos)
  SELECT trial_id, host, flag, detail, pos FROM trial_flags;
DROP TABLE trial_flags;
ALTER TABLE trial_flags_v13 RENAME TO trial_flags;
CREATE INDEX trial_flags_by_trial ON trial_flags (trial_id);
