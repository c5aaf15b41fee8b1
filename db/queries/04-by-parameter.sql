-- Throughput of experiment :experiment with one column per parameter: edit the names to your
-- matrix's axes.
SELECT (SELECT value FROM cell_params p WHERE p.cell_id = r.cell_id AND p.name = 'case') AS "case",
       json_extract(r.params, '$.bs') AS bs,
       r.n,
       round(r.mean, 3) AS mib_per_s,
       round(r.stddev_pop, 3) AS std
FROM cell_results r
WHERE r.experiment_id = :experiment
  AND r.job = 'all' AND r.metric = 'mib_per_s'
ORDER BY r.ordinal;
