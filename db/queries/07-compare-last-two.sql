-- The last two experiments side by side, cells matched by label: mean MiB/s and %change.
WITH ids AS (SELECT id FROM experiments ORDER BY id DESC LIMIT 2),
     base AS (SELECT label, mean FROM cell_results
              WHERE experiment_id = (SELECT min(id) FROM ids)
                AND job = 'all' AND metric = 'mib_per_s'),
     new AS (SELECT label, mean FROM cell_results
             WHERE experiment_id = (SELECT max(id) FROM ids)
               AND job = 'all' AND metric = 'mib_per_s')
SELECT base.label,
       round(base.mean, 3) AS base,
       round(new.mean, 3) AS new,
       printf('%+.1f%%', 100.0 * (new.mean - base.mean) / base.mean) AS change
FROM base JOIN new USING (label)
ORDER BY base.label;
