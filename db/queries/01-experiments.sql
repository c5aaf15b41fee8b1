-- Every experiment and how far it got.
SELECT experiment_id, name, status, started_at, finished_at, cells, trials, ok, failed,
       pending + running AS unfinished
FROM experiment_progress
ORDER BY experiment_id;
