-- Failed trials of every experiment, most recent first, with the error.
SELECT t.experiment_id, e.name, c.ordinal, c.label, t.rep, t.warmup, t.finished_at, t.error
FROM trials t
JOIN cells c ON c.id = t.cell_id
JOIN experiments e ON e.id = t.experiment_id
WHERE t.status = 'failed'
ORDER BY t.finished_at DESC, t.id DESC;
