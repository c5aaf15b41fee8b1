-- The cells of experiment :experiment whose throughput varies most between repetitions:
-- coefficient of variation first, then the spread from the slowest to the fastest run.
-- Above 5 % a small change needs many repetitions before a t-test can see it.
SELECT ordinal, label, n,
       round(CAST(mean AS NUMERIC), 3) AS mib_per_s,
       round(CAST(100 * cv AS NUMERIC), 2) AS cv_pct,
       round(CAST(min AS NUMERIC), 3) AS slowest,
       round(CAST(max AS NUMERIC), 3) AS fastest,
       round(CAST(100.0 * (max - min) / mean AS NUMERIC), 1) AS spread_pct
FROM cell_results
WHERE experiment_id = :experiment
  AND job = 'all' AND metric = 'mib_per_s' AND n >= 2
ORDER BY cv DESC, ordinal
LIMIT 20;
