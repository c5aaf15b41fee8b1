-- tunelab schema, version 5: the `--set NAME=VALUE` overrides an experiment was run with, as
-- one JSON object in the order given ({"portal": "192.0.2.11:3260", "repeat": "1"}), NULL when
-- there were none. matrix_yaml keeps the file as written; the two together are the matrix as it
-- ran, and `tunelab resume` loads them so. SQL: SELECT key, value FROM experiments,
-- json_each(experiments.overrides) WHERE id = 1.

ALTER TABLE experiments ADD COLUMN overrides TEXT;
