-- Every cell's change from experiment :base to :new, regressions first, matched by the cells'
-- parameters (the loop device of the day does not matter) with Welch's t statistic.
-- |t| above about 4.3 (n = 3 on each side) or 2.8 (n = 5) is significant at 5 %;
-- `tunelab compare` computes the p-value and marks the rows.
WITH base AS (SELECT params, label, n, mean, stddev_samp FROM cell_results
              WHERE experiment_id = :base
                AND job = 'all' AND metric = 'mib_per_s'),
     new AS (SELECT params, n, mean, stddev_samp FROM cell_results
             WHERE experiment_id = :new
               AND job = 'all' AND metric = 'mib_per_s'),
     pair AS (SELECT base.label, base.mean AS base, new.mean AS new,
                     CAST(100.0 * (new.mean - base.mean) / base.mean AS NUMERIC) AS pct,
                     (new.mean - base.mean)
                       / sqrt(base.stddev_samp * base.stddev_samp / base.n
                              + new.stddev_samp * new.stddev_samp / new.n) AS t,
                     base.n || '/' || new.n AS n
              FROM base JOIN new USING (params))
SELECT label,
       round(CAST(base AS NUMERIC), 3) AS base,
       round(CAST(new AS NUMERIC), 3) AS new,
       CASE WHEN pct >= 0 THEN '+' ELSE '' END || CAST(round(pct, 1) AS TEXT) || '%' AS change,
       round(CAST(t AS NUMERIC), 2) AS t,
       n
FROM pair
ORDER BY pct, label;
