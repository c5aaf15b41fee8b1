package io.tunelab.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The agent's {@code facts} answer read: plain facts, and per block device its scheduler line,
 * model and vendor; a monitor's {@code stat} rows reach its report as they were printed.
 */
class FactsAnswerTest {

  @Test
  void perDeviceLinesAreKeptApartFromTheHostsFacts() {
    Answer answer =
        new Answer(
            "h",
            AgentVerb.FACTS,
            0,
            List.of(
                "kernel_release\t6.1.0-18-amd64",
                "cpu_model\tAMD EPYC 7302 16-Core Processor",
                "cpufreq_governor\tschedutil",
                "kernel_config\tsha256:00ff",
                "block\tsda\tmq-deadline [bfq] none",
                "model\tsda\tST2000DM008-2FR1",
                "vendor\tsda\tATA",
                "wwid\tsda\tnaa.5000c500a1b2c3d4",
                "block\tvdb\t[none] mq-deadline",
                "serial\tvdb\ttunelab-disk1",
                "block\tloop0\t[none] mq-deadline"));

    Facts facts = Facts.from(answer);

    assertEquals("AMD EPYC 7302 16-Core Processor", facts.get("cpu_model"));
    assertEquals("schedutil", facts.get("cpufreq_governor"));
    assertEquals("sha256:00ff", facts.get("kernel_config"));
    assertEquals(
        Map.of(
            "sda", "mq-deadline [bfq] none",
            "vdb", "[none] mq-deadline",
            "loop0", "[none] mq-deadline"),
        facts.schedulers());
    assertEquals(
        Map.of(
            "wwid",
            Map.of("sda", "naa.5000c500a1b2c3d4"),
            "serial",
            Map.of("vdb", "tunelab-disk1")),
        facts.stableNames());
    assertEquals(Map.of("sda", "ST2000DM008-2FR1"), facts.models());
    assertEquals(Map.of("sda", "ATA"), facts.vendors());
    assertEquals(null, facts.get("model"), "a device's model is no host fact");
  }

  @Test
  void aMonitorsCountersReachItsReport() {
    Answer answer =
        new Answer(
            "h",
            AgentVerb.STOP,
            0,
            List.of(
                "monitor\tvmstat@c\t143",
                "out\tvmstat@c\tprocs ---",
                "stat\tvmstat@c\tbegin\t100",
                "stat\tvmstat@c\tcpu  1 2 3 4",
                "stat\tvmstat@c\tend\t200",
                "stat\tvmstat@c\tcpu  2 2 3 9"));

    MonitorReport report = TrialReport.from(answer).monitors().get(0);

    assertEquals(
        List.of("begin\t100", "cpu  1 2 3 4", "end\t200", "cpu  2 2 3 9"), report.counters());
    assertEquals(List.of("procs ---"), report.stdout());
  }
}
