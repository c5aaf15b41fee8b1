-- Experiments :base and :new side by side, cells matched by label: mean MiB/s and %change.
WITH base AS (SELECT label, mean FROM cell_results
              WHERE experiment_id = :base
                AND job = 'all' AND metric = 'mib_per_s'),
     new AS (SELECT label, mean FROM cell_results
             WHERE experiment_id = :new
               AND job = 'all' AND metric = 'mib_per_s')
SELECT base.label,
       round(base.mean, 3) AS base,
       round(new.mean, 3) AS new,
       printf('%+.1f%%', 100.0 * (new.mean - base.mean) / base.mean) AS change
FROM base JOIN new USING (label)
ORDER BY base.label;
