package io.tunelab.inventory;

import java.time.Duration;

/**
 * How a host changes kernel (docs/kernels.md): the inventory's {@code boot}, {@code boot_timeout}
 * and {@code power_cycle}.
 *
 * @param method how the host is booted into another release
 * @param command for {@link Method#COMMAND}: the shell command run on the host, with the release in
 *     {@code TUNELAB_KERNEL}; else null
 * @param timeout how long to wait for SSH and the new kernel after asking for a boot
 * @param powerCycle a shell command run on the controller that power-cycles the host, or null
 */
public record BootSpec(Method method, String command, Duration timeout, String powerCycle) {

  /** How long to wait for a host to come back when the inventory does not say. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

  /** kexec, ten minutes, no power cycle: what a host without boot keys gets. */
  public static final BootSpec DEFAULT = new BootSpec(Method.KEXEC, null, DEFAULT_TIMEOUT, null);

  /** How a host is booted into another kernel. */
  public enum Method implements Keyword {
    /**
     * {@code kexec -l} the release, then {@code systemctl kexec} (or sync and {@code kexec -e}).
     */
    KEXEC("kexec"),
    /** {@code grub-reboot} to the release's menu entry once, then {@code reboot}. */
    REBOOT("reboot"),
    /** The inventory's own command. */
    COMMAND("command");

    private final String word;

    Method(String word) {
      this.word = word;
    }

    @Override
    public String word() {
      return word;
    }
  }
}
