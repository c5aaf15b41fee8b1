-- tunelab schema, version 9: a name for each experiment that holds in every database.
--
-- tunelab import copies experiments between databases; the id of an experiment is its place in
-- one file, the uuid is the experiment itself: an import adds an experiment whose uuid the
-- database does not hold yet, and nothing for one it holds. New experiments get a random
-- (version 4) uuid; an experiment planned before this version gets one derived from its id,
-- created_at, name and matrix (version 3), so that every copy of an older file derives the same.

ALTER TABLE experiments ADD COLUMN uuid TEXT;
CREATE UNIQUE INDEX experiments_by_uuid ON experiments (uuid);
