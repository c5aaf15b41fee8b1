-- Mean throughput of every cell of experiment :experiment, best first, with its noise.
SELECT ordinal, label, n,
       round(CAST(mean AS NUMERIC), 3) AS mib_per_s,
       round(CAST(stddev_pop AS NUMERIC), 3) AS std,
       round(CAST(100 * cv AS NUMERIC), 1) AS cv_pct
FROM cell_results
WHERE experiment_id = :experiment
  AND job = 'all' AND metric = 'mib_per_s'
ORDER BY mean DESC;
