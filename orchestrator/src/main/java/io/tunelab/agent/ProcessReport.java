package io.tunelab.agent;

import io.tunelab.workload.JobResult;
import io.tunelab.workload.Stopped;

/**
 * How one process of a trial ran on its host.
 *
 * @param result its exit status, host-side start and end, and output
 * @param effective the scheduling read back from it before it was released
 * @param stopped whether the duration stopped it
 * @param stdoutDropped stdout lines beyond the agent's cap that did not come back (0 normally)
 */
public record ProcessReport(
    JobResult result, Scheduling effective, Stopped stopped, long stdoutDropped) {}
