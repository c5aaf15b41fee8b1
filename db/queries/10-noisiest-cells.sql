-- The cells of experiment :experiment whose throughput varies most between repetitions:
-- coefficient of variation first, then the spread from the slowest to the fastest run.
-- Above 5 % a small change needs many repetitions before a t-test can see it.
SELECT ordinal, label, n,
       round(mean, 3) AS mib_per_s,
       round(100 * cv, 2) AS cv_pct,
       round(min, 3) AS slowest,
       round(max, 3) AS fastest,
       round(100.0 * (max - min) / mean, 1) AS spread_pct
FROM cell_results
WHERE experiment_id = :experiment
  AND job = 'all' AND metric = 'mib_per_s' AND n >= 2
ORDER BY cv DESC, ordinal
LIMIT 20;
