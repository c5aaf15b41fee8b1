-- Experiments :base and :new side by side, cells matched by label: mean MiB/s and %change.
-- Written to run on SQLite and PostgreSQL alike (round of a NUMERIC, || to format).
WITH base AS (SELECT label, mean FROM cell_results
              WHERE experiment_id = :base
                AND job = 'all' AND metric = 'mib_per_s'),
     new AS (SELECT label, mean FROM cell_results
             WHERE experiment_id = :new
               AND job = 'all' AND metric = 'mib_per_s'),
     pair AS (SELECT base.label, base.mean AS base, new.mean AS new,
                     CAST(100.0 * (new.mean - base.mean) / base.mean AS NUMERIC) AS pct
              FROM base JOIN new USING (label))
SELECT label,
       round(CAST(base AS NUMERIC), 3) AS base,
       round(CAST(new AS NUMERIC), 3) AS new,
       CASE WHEN pct >= 0 THEN '+' ELSE '' END || CAST(round(pct, 1) AS TEXT) || '%' AS change
FROM pair
ORDER BY label;
