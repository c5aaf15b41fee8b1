package io.tunelab.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.inventory.BootSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The boot scripts are one line (the agent frames on lines) and valid sh; the check speaks. */
class BootCommandsTest {
  private static final List<BootSpec> SPECS =
      List.of(
          BootSpec.DEFAULT,
          new BootSpec(BootSpec.Method.REBOOT, null, BootSpec.DEFAULT_TIMEOUT, null),
          new BootSpec(
              BootSpec.Method.COMMAND, "echo $TUNELAB_KERNEL", BootSpec.DEFAULT_TIMEOUT, null));

  private static String run(List<String> argv, boolean syntaxOnly) throws Exception {
    List<String> cmd = new ArrayList<>(argv);
    if (syntaxOnly) {
      cmd.add(1, "-n");
    }
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    return out;
  }

  @Test
  void everyScriptIsOneLineOfValidShell() throws Exception {
    for (BootSpec spec : SPECS) {
      for (List<String> argv :
          List.of(
              BootCommands.check(spec, "6.1.0-9-amd64"),
              BootCommands.boot(spec, "6.1.0-9-amd64"))) {
        assertFalse(argv.get(2).contains("\n"), argv.get(2));
        run(argv, true);
      }
    }
  }

  @Test
  void theCheckNamesAReleaseThatIsNotInstalled() throws Exception {
    String out = run(BootCommands.check(BootSpec.DEFAULT, "0.0.0-nowhere"), false);
    assertTrue(
        out.contains("kernel 0.0.0-nowhere is not installed: no /boot/vmlinuz-0.0.0-nowhere"), out);
    assertTrue(out.contains("kernel 0.0.0-nowhere has no initrd"), out);
  }
}
