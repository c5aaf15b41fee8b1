-- tunelab schema, version 14: a search's rounds.
--
-- After each round of a search (matrix key search:), every candidate cell's state: live,
-- eliminated (reason says why: "worse than cell 12 over rounds 1–4, p = 0.010") or winner (the
-- cell the confirmation then measures against default). The cells and trials themselves are
-- ordinary rows, added as the search draws them.

CREATE TABLE search_rounds (
  experiment_id INTEGER NOT NULL REFERENCES experiments (id) ON DELETE CASCADE,
  round         INTEGER NOT NULL,
  cell_id       INTEGER NOT NULL REFERENCES cells (id) ON DELETE CASCADE,
  state         TEXT    NOT NULL CHECK (state IN ('live', 'eliminated', 'winner')),
  reason        TEXT,
  PRIMARY KEY (experiment_id, round, cell_id)
);
