-- The tool output kept with each trial of the latest experiment that kept any (fio's JSON),
-- with the id to fetch it by. `data` is gzip: the sqlite3 shell writes one out for gzip -d,
--   sqlite3 tunelab.db "SELECT writefile('fio.json.gz', data) FROM trial_outputs
--                       WHERE trial_id = 7 AND process = 'reader.0'" && gzip -d fio.json.gz
-- and `tunelab export --outputs` writes them all as text.
SELECT c.ordinal, c.label, t.rep, t.status, o.trial_id, o.process, o.kind,
       length(o.data) AS gzip_bytes
FROM trial_outputs o
JOIN trials t ON t.id = o.trial_id
JOIN cells c ON c.id = t.cell_id
WHERE t.experiment_id = (SELECT max(t2.experiment_id)
                         FROM trial_outputs o2 JOIN trials t2 ON t2.id = o2.trial_id)
ORDER BY c.ordinal, t.rep, o.process, o.kind;
