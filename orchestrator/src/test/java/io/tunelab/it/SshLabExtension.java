package io.tunelab.it;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The two-host SSH lab ({@code lab/lab}) for a test class: brought up (as root, with the commands
 * the class names) before its first test and down after its last. Registered as a static
 * {@code @RegisterExtension} field.
 */
final class SshLabExtension implements BeforeAllCallback, AfterAllCallback {
  private final List<String> commands;
  private Map<String, String> env;

  /** A lab whose tests also need {@code commands} on this machine. */
  SshLabExtension(String... commands) {
    this.commands = List.of(commands);
  }

  /** The lab's {@code lab/state/env}: disks, addresses, URLs (docs/lab.md). */
  Map<String, String> env() {
    return env;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    Lab.requireRoot();
    if (!commands.isEmpty()) {
      Lab.requireCommands(commands.toArray(String[]::new));
    }
    env = Lab.up();
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    Lab.down(env);
    env = null;
  }
}
