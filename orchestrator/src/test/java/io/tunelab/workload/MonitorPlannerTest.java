package io.tunelab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tunelab.matrix.Monitor;
import io.tunelab.matrix.Substitution;
import io.tunelab.yaml.Position;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MonitorPlannerTest {
  private static final Position AT = new Position("m.yaml", 1, 1);

  @Test
  void oneMonitorPerRoleWithItsDevicesSubstituted() {
    Monitor iostat =
        new Monitor(
            "iostat",
            List.of("client", "server"),
            Duration.ofSeconds(2),
            List.of("${devs[*]}", "sd${x}"),
            AT);
    Monitor vmstat = new Monitor("vmstat", List.of("client"), Duration.ofSeconds(1), List.of(), AT);

    List<MonitorPlan> plans =
        MonitorPlanner.plan(
            List.of(iostat, vmstat),
            Map.of("devs", Substitution.listValue(List.of("loop3", "loop4")), "x", "b"));

    assertEquals(
        List.of("iostat@client", "iostat@server", "vmstat@client"),
        plans.stream().map(MonitorPlan::name).toList());
    assertEquals(
        List.of("env", "LC_ALL=C", "iostat", "-dxky", "loop3", "loop4", "sdb", "2"),
        plans.get(1).argv());
    assertEquals(List.of("loop3", "loop4", "sdb"), plans.get(0).devices());
    assertEquals("server", plans.get(1).role());
    assertEquals(List.of("env", "LC_ALL=C", "vmstat", "-n", "1"), plans.get(2).argv());
  }
}
