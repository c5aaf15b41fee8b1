-- The best cell for each block size in experiment :experiment, and its lead over the
-- runner-up: with read_ahead_kb as the other axis, the best read_ahead_kb per block size.
WITH ranked AS (
  SELECT json_extract(params, '$.bs') AS bs, label, n, mean, stddev_pop,
         row_number() OVER by_bs AS place,
         lead(mean) OVER by_bs AS runner_up,
         min(ordinal) OVER (PARTITION BY json_extract(params, '$.bs')) AS first_cell
  FROM cell_results
  WHERE experiment_id = :experiment
    AND job = 'all' AND metric = 'mib_per_s'
  WINDOW by_bs AS (PARTITION BY json_extract(params, '$.bs') ORDER BY mean DESC)
)
SELECT bs, label AS best, n,
       round(mean, 3) AS mib_per_s,
       round(stddev_pop, 3) AS std,
       CASE WHEN runner_up > 0 THEN printf('%+.1f%%', 100.0 * (mean - runner_up) / runner_up) END
         AS lead
FROM ranked
WHERE place = 1
ORDER BY first_cell;
