-- Where the time of every experiment went: wall time from the first trial's start to the
-- last one's end, the time inside the workloads, and the overhead per trial (applying
-- settings, sync and drop_caches, the agent's round trips). SQLite's spelling: on PostgreSQL
-- run postgresql/14-where-the-time-went.sql.
SELECT e.id AS experiment_id, e.name,
       count(t.id) AS trials,
       round((julianday(max(t.finished_at)) - julianday(min(t.started_at))) * 86400, 1) AS wall_s,
       round(sum(t.workload_seconds), 1) AS workload_s,
       round(((julianday(max(t.finished_at)) - julianday(min(t.started_at))) * 86400
              - sum(t.workload_seconds)) / count(t.id), 3) AS overhead_per_trial_s
FROM experiments e
JOIN trials t ON t.experiment_id = e.id
WHERE t.status IN ('ok', 'failed') AND t.workload_seconds IS NOT NULL
GROUP BY e.id
ORDER BY e.id;
