package io.tunelab.store;

import java.util.List;

/** A new experiment's id and its trials, all pending, in run order. */
public record StoredPlan(long experimentId, List<TrialRef> trials) {}
