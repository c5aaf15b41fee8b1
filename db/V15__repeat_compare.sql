-- tunelab schema, version 15: the axis an adaptive repeat rule compares.
--
-- repeat_compare names an axis of the matrix as written (client.kernel, or a knob axis such as
-- client.block.LUN.scheduler) when repeat_target is the 95 % confidence half-width of the ratio
-- between that axis's values (value / base, the base being its first value) within each group of
-- cells that share every other axis, rather than of each cell's own mean; NULL otherwise.

ALTER TABLE experiments ADD COLUMN repeat_compare TEXT;
