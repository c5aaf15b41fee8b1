-- Where the time of every experiment went: wall time from the first trial's start to the
-- last one's end, the time inside the workloads, and the overhead per trial (applying
-- settings, sync and drop_caches, the agent's round trips). PostgreSQL's spelling of
-- ../14-where-the-time-went.sql: the time between two timestamps is an interval here.
WITH spans AS (
  SELECT e.id AS experiment_id, e.name,
         count(t.id) AS trials,
         extract(epoch FROM max(t.finished_at)::timestamptz - min(t.started_at)::timestamptz)
           AS wall,
         sum(t.workload_seconds) AS workload
  FROM experiments e
  JOIN trials t ON t.experiment_id = e.id
  WHERE t.status IN ('ok', 'failed') AND t.workload_seconds IS NOT NULL
  GROUP BY e.id, e.name
)
SELECT experiment_id, name, trials,
       round(CAST(wall AS NUMERIC), 1) AS wall_s,
       round(CAST(workload AS NUMERIC), 1) AS workload_s,
       round(CAST((wall - workload) / trials AS NUMERIC), 3) AS overhead_per_trial_s
FROM spans
ORDER BY experiment_id;
