-- tunelab schema, version 8: the repetition rule an experiment ran with, beside its result.
--
-- experiments.repeat is the most measured trials a cell gets (the plan holds that many per cell);
-- repeat_min and repeat_target say when a cell stopped earlier: once it had repeat_min measured
-- trials and the 95 % confidence half-width of the mean of repeat_metric (of job `all`) was at
-- most repeat_target of the mean (0.02 for 2%). repeat_target is NULL for a fixed count, and
-- repeat_metric NULL for the default (mib_per_s where recorded, else seconds). The trials a cell
-- did not need are `skipped`, their error saying why.

ALTER TABLE experiments ADD COLUMN repeat_min INTEGER;
ALTER TABLE experiments ADD COLUMN repeat_target REAL;
ALTER TABLE experiments ADD COLUMN repeat_metric TEXT;
