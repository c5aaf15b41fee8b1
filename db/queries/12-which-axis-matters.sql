-- Which axis matters most in experiment :experiment: for every value of every axis, the
-- average of its cells' mean MiB/s and how far that is behind the axis's best value.
-- An axis whose values all come out within a percent or two hardly matters.
SELECT p.name AS axis,
       p.value,
       count(*) AS cells,
       round(avg(r.mean), 3) AS avg_mib_per_s,
       printf('%+.1f%%', 100.0 * (avg(r.mean) - max(avg(r.mean)) OVER by_axis)
                         / max(avg(r.mean)) OVER by_axis) AS vs_best
FROM cell_results r
JOIN cell_params p ON p.cell_id = r.cell_id
WHERE r.experiment_id = :experiment
  AND r.job = 'all' AND r.metric = 'mib_per_s'
GROUP BY p.name, p.value
WINDOW by_axis AS (PARTITION BY p.name)
ORDER BY min(p.pos), avg(r.mean) DESC;
