-- Mean throughput of every cell of experiment :experiment, best first, with its noise.
SELECT ordinal, label, n,
       round(mean, 3) AS mib_per_s,
       round(stddev_pop, 3) AS std,
       round(100 * cv, 1) AS cv_pct
FROM cell_results
WHERE experiment_id = :experiment
  AND job = 'all' AND metric = 'mib_per_s'
ORDER BY mean DESC;
