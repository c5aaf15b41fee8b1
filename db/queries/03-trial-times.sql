-- Every repetition of experiment :experiment: its time and throughput, warm-ups flagged.
SELECT ordinal, label, rep, warmup, status,
       max(CASE WHEN metric = 'seconds' THEN value END) AS seconds,
       max(CASE WHEN metric = 'mib_per_s' THEN value END) AS mib_per_s
FROM trial_samples
WHERE experiment_id = :experiment AND job = 'all'
GROUP BY trial_id, ordinal, label, rep, warmup, status
ORDER BY ordinal, rep;
