-- How evenly concurrent jobs (processes: N) shared the device in each trial of experiment
-- :experiment: the slowest and the fastest job's MiB/s and their ratio (1.00 is fair),
-- least fair first. Dirty throttling that starves some writers shows up here.
SELECT ordinal, label, rep,
       count(*) AS jobs,
       round(min(value), 3) AS slowest,
       round(max(value), 3) AS fastest,
       round(max(value) / min(value), 2) AS ratio
FROM trial_samples
WHERE experiment_id = :experiment
  AND metric = 'mib_per_s' AND job <> 'all' AND status = 'ok' AND warmup = 0
GROUP BY trial_id
ORDER BY max(value) / min(value) DESC, ordinal, rep;
