-- The best cell for each block size in experiment :experiment, and its lead over the
-- runner-up: with read_ahead_kb as the other axis, the best read_ahead_kb per block size.
WITH cells AS (
  SELECT (SELECT value FROM cell_params p WHERE p.cell_id = r.cell_id AND p.name = 'bs') AS bs,
         r.label, r.n, r.mean, r.stddev_pop, r.ordinal
  FROM cell_results r
  WHERE r.experiment_id = :experiment
    AND r.job = 'all' AND r.metric = 'mib_per_s'
), ranked AS (
  SELECT bs, label, n, mean, stddev_pop,
         row_number() OVER (PARTITION BY bs ORDER BY mean DESC) AS place,
         lead(mean) OVER (PARTITION BY bs ORDER BY mean DESC) AS runner_up,
         min(ordinal) OVER (PARTITION BY bs) AS first_cell
  FROM cells
)
SELECT bs, label AS best, n,
       round(CAST(mean AS NUMERIC), 3) AS mib_per_s,
       round(CAST(stddev_pop AS NUMERIC), 3) AS std,
       CASE WHEN runner_up > 0
            THEN '+' || CAST(round(CAST(100.0 * (mean - runner_up) / runner_up AS NUMERIC), 1)
                             AS TEXT) || '%'
       END AS lead
FROM ranked
WHERE place = 1
ORDER BY first_cell;
