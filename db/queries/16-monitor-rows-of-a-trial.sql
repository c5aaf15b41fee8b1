-- Every interval row the monitors recorded during one trial (the last one with monitor rows;
-- put a trial id there to see another): vmstat's CPU split and iostat's load per device,
-- interval by interval, the peaks the trial's means in `samples` hide. Add the metrics you need.
SELECT host, monitor, device, t,
       round(CAST(max(CASE metric WHEN 'us' THEN value END) AS NUMERIC), 2) AS us,
       round(CAST(max(CASE metric WHEN 'sy' THEN value END) AS NUMERIC), 2) AS sy,
       round(CAST(max(CASE metric WHEN 'id' THEN value END) AS NUMERIC), 2) AS id,
       round(CAST(max(CASE metric WHEN 'wa' THEN value END) AS NUMERIC), 2) AS wa,
       round(CAST(max(CASE metric WHEN 'r_per_s' THEN value END) AS NUMERIC), 2) AS r_per_s,
       round(CAST(max(CASE metric WHEN 'w_per_s' THEN value END) AS NUMERIC), 2) AS w_per_s,
       round(CAST(max(CASE metric WHEN 'util_pct' THEN value END) AS NUMERIC), 2) AS util_pct
FROM monitor_samples
WHERE trial_id = (SELECT max(trial_id) FROM monitor_samples)
GROUP BY host, monitor, device, t
ORDER BY host, monitor, device, t;
