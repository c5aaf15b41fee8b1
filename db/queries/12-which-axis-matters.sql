-- Which axis matters most in experiment :experiment: for every value of every axis, the
-- average of its cells' mean MiB/s and how far that is behind the axis's best value.
-- An axis whose values all come out within a percent or two hardly matters.
WITH byvalue AS (SELECT p.name AS axis, p.value, count(*) AS cells, avg(r.mean) AS mean,
                        min(p.pos) AS pos
                 FROM cell_results r
                 JOIN cell_params p ON p.cell_id = r.cell_id
                 WHERE r.experiment_id = :experiment
                   AND r.job = 'all' AND r.metric = 'mib_per_s'
                 GROUP BY p.name, p.value),
     behind AS (SELECT axis, value, cells, mean, pos,
                       CAST(100.0 * (mean - max(mean) OVER (PARTITION BY axis))
                            / max(mean) OVER (PARTITION BY axis) AS NUMERIC) AS pct
                FROM byvalue)
SELECT axis, value, cells,
       round(CAST(mean AS NUMERIC), 3) AS avg_mib_per_s,
       CASE WHEN pct >= 0 THEN '+' ELSE '' END || CAST(round(pct, 1) AS TEXT) || '%' AS vs_best
FROM behind
ORDER BY pos, mean DESC;
