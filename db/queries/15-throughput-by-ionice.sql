-- Each job's throughput per cell with the I/O scheduling class its processes really had (read
-- back with ionice -p while they ran), in the latest experiment that recorded its processes:
-- a class the host did not grant shows as what it was, not as what the matrix asked for.
SELECT ordinal, label, job, ionice,
       count(*) AS trials,
       round(CAST(avg(value) AS NUMERIC), 3) AS mib_per_s,
       round(CAST(min(value) AS NUMERIC), 3) AS slowest,
       round(CAST(max(value) AS NUMERIC), 3) AS fastest
FROM (SELECT s.ordinal, s.label, s.job, s.value,
             (SELECT string_agg(d.ionice, ',')
              FROM (SELECT DISTINCT p.ionice FROM trial_processes p
                    WHERE p.trial_id = s.trial_id AND p.job = s.job) AS d) AS ionice
      FROM trial_samples s
      WHERE s.experiment_id = (SELECT max(t.experiment_id)
                               FROM trial_processes p JOIN trials t ON t.id = p.trial_id)
        AND s.metric = 'mib_per_s' AND s.status = 'ok' AND s.warmup = 0) AS per_trial
WHERE ionice IS NOT NULL
GROUP BY ordinal, label, job, ionice
ORDER BY ordinal, job, ionice;
