package io.tunelab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class HealthAnswerTest {
  @Test
  void aFigureIsUpToEighteenDigitsOrNotReported() {
    Answer answer =
        new Answer(
            "server",
            AgentVerb.RUN,
            0,
            List.of(
                "job\tw\t0",
                "after\tboot_id\tb1",
                "after\tcursor\t42",
                "after\tpswpin\t123456789012345678",
                "after\tpswpout\t1234567890123456789",
                "after\tthrottle\t-3",
                "after\tdisk_read\t",
                "after\tdisk_written\t0",
                "after\tklines\t2",
                "after\tkline\t<4>a \\x09 warning",
                "after\tcpufreq\tperformance 800000 3000000"));
    Health h = Health.in(answer, "after");
    assertEquals("b1", h.bootId());
    assertEquals("42", h.cursor());
    assertEquals(123456789012345678L, h.pswpin());
    assertEquals(-1, h.pswpout(), "19 digits");
    assertEquals(-1, h.throttle(), "a sign");
    assertEquals(-1, h.diskRead(), "empty");
    assertEquals(0, h.diskWritten());
    assertEquals(2, h.kernelLines());
    assertEquals(List.of("<4>a \t warning"), h.firstLines());
    assertEquals("performance 800000 3000000", h.cpufreq());
    assertNull(Health.in(answer, "before"));
  }
}
