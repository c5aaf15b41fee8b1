-- Throughput of experiment :experiment with one column per parameter: edit the names to your
-- matrix's axes.
SELECT (SELECT value FROM cell_params p WHERE p.cell_id = r.cell_id AND p.name = 'case') AS "case",
       (SELECT value FROM cell_params p WHERE p.cell_id = r.cell_id AND p.name = 'bs') AS bs,
       r.n,
       round(CAST(r.mean AS NUMERIC), 3) AS mib_per_s,
       round(CAST(r.stddev_pop AS NUMERIC), 3) AS std
FROM cell_results r
WHERE r.experiment_id = :experiment
  AND r.job = 'all' AND r.metric = 'mib_per_s'
ORDER BY r.ordinal;
