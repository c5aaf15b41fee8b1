-- Every cell's change from experiment :base to :new, regressions first, matched by the cells'
-- parameters (the loop device of the day does not matter) with Welch's t statistic.
-- |t| above about 4.3 (n = 3 on each side) or 2.8 (n = 5) is significant at 5 %;
-- `tunelab compare` computes the p-value and marks the rows.
WITH base AS (SELECT params, label, n, mean, stddev_samp FROM cell_results
              WHERE experiment_id = :base
                AND job = 'all' AND metric = 'mib_per_s'),
     new AS (SELECT params, n, mean, stddev_samp FROM cell_results
             WHERE experiment_id = :new
               AND job = 'all' AND metric = 'mib_per_s')
SELECT base.label,
       round(base.mean, 3) AS base,
       round(new.mean, 3) AS new,
       printf('%+.1f%%', 100.0 * (new.mean - base.mean) / base.mean) AS change,
       round((new.mean - base.mean)
             / sqrt(base.stddev_samp * base.stddev_samp / base.n
                    + new.stddev_samp * new.stddev_samp / new.n), 2) AS t,
       base.n || '/' || new.n AS n
FROM base JOIN new USING (params)
ORDER BY (new.mean - base.mean) / base.mean, base.label;
