package io.tunelab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.matrix.Workload;
import org.junit.jupiter.api.Test;

/** The grace the matrix's timeout check leaves is the one the agent gives. */
class StopGraceTest {
  @Test
  void theMatrixCheckAndTheAgentAgreeOnTheStopGrace() {
    assertEquals(Workload.STOP_GRACE, AgentSession.STOP_GRACE);
  }
}
