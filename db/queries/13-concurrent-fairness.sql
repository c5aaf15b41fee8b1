-- How evenly the concurrent processes of each trial of experiment :experiment shared the
-- device: the slowest and the fastest process's MiB/s and their ratio (1.00 is fair), least
-- fair first. Only per-process rows count (`writer.0`, `dd.1`): a job's total (`dd`), the
-- trial's (`all`) and monitors (`vmstat@client`) are not processes; a trial of one process
-- is 1.00. Dirty throttling that starves some writers shows up here.
SELECT ordinal, label, rep,
       count(*) AS processes,
       round(CAST(min(value) AS NUMERIC), 3) AS slowest,
       round(CAST(max(value) AS NUMERIC), 3) AS fastest,
       round(CAST(max(value) / min(value) AS NUMERIC), 2) AS ratio
FROM trial_samples
WHERE experiment_id = :experiment
  AND metric = 'mib_per_s' AND job LIKE '%.%' AND job NOT LIKE '%@%'
  AND status = 'ok' AND warmup = 0
GROUP BY trial_id, ordinal, label, rep
ORDER BY max(value) / min(value) DESC, ordinal, rep;
