package io.tunelab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.agent.Facts;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The facts as host_facts stores them: one row per fact, per device its scheduler, model and stable
 * name.
 */
class HostFactsRecordedTest {

  @Test
  void everyFactAndEveryDevicesSchedulerModelAndVendorIsARow() {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("kernel_release", "6.1.0-18-amd64");
    values.put("cpu_model", "AMD EPYC 7302 16-Core Processor");
    values.put("kernel_config", "sha256:00ff");
    Facts facts =
        new Facts(
            values,
            Map.of("sda", "[bfq] none"),
            Map.of("sda", "ST2000DM008-2FR1"),
            Map.of("sda", "ATA"),
            Map.of("wwid", Map.of("sda", "naa.5000c500a1b2c3d4")));

    Map<String, String> expected = new LinkedHashMap<>(values);
    expected.put("block.sda.scheduler", "[bfq] none");
    expected.put("block.sda.model", "ST2000DM008-2FR1");
    expected.put("block.sda.vendor", "ATA");
    expected.put("block.sda.wwid", "naa.5000c500a1b2c3d4");
    assertEquals(expected, HostFacts.recorded(facts));
  }
}
