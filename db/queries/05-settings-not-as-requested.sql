-- Knobs of experiment :experiment whose value read back differs from what was asked (the
-- kernel rounds or refuses):
-- `default` asks for the value the host had before the experiment.
SELECT DISTINCT label, host, knob, requested, effective, original
FROM trial_settings
WHERE experiment_id = :experiment
  AND effective IS DISTINCT FROM (CASE requested WHEN 'default' THEN original ELSE requested END)
ORDER BY label, host, knob;
