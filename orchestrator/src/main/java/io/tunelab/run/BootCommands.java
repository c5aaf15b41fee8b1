package io.tunelab.run;

import io.tunelab.inventory.BootSpec;
import java.util.List;

/**
 * The shell a host runs to check that it can boot a release, and to boot it (docs/kernels.md). The
 * release is the script's {@code $1}, never spliced into its text; each script is one line. A boot
 * is started detached and a moment later, so the agent answers before the host goes down.
 */
final class BootCommands {
  /** Finds the kernel and initrd of release $1, as Debian and Fedora name them. */
  private static final String FILES =
      "k=/boot/vmlinuz-$1\n"
          + "i=/boot/initrd.img-$1\n"
          + "[ -e \"$i\" ] || i=/boot/initramfs-$1.img\n";

  /** The title of release $1's top-level GRUB menu entry, in $entry. */
  private static final String ENTRY =
      "cfg=/boot/grub/grub.cfg; [ -r \"$cfg\" ] || cfg=/boot/grub2/grub.cfg\n"
          + "entry=$(awk -F\"'\" -v r=\"with Linux $1\" '$1 ~ /^menuentry / &&"
          + " substr($2, length($2) - length(r) + 1) == r { print $2; exit }' \"$cfg\""
          + " 2>/dev/null)\n";

  private static final String DETACHED = " </dev/null >/dev/null 2>&1 &\n";

  private BootCommands() {}

  /**
   * Prints one line per reason {@code spec} cannot boot release $1 on this host (nothing when it
   * can); {@code home} is the release the host runs now, whose files a boot back needs too.
   */
  static List<String> check(BootSpec spec, String release) {
    StringBuilder sh = new StringBuilder(FILES);
    sh.append("[ -e \"$k\" ] || echo \"kernel $1 is not installed: no $k\"\n");
    sh.append("[ -e \"$i\" ] || echo \"kernel $1 has no initrd: no /boot/initrd.img-$1\"\n");
    switch (spec.method()) {
      case KEXEC -> {
        sh.append(
            "command -v kexec >/dev/null 2>&1 || echo \"kexec is not installed (install"
                + " kexec-tools)\"\n");
        sh.append(
            "[ \"$(cat /proc/sys/kernel/kexec_load_disabled 2>/dev/null)\" != 1 ] ||"
                + " echo \"kexec is disabled: /proc/sys/kernel/kexec_load_disabled is 1\"\n");
        sh.append(
            "case $(cat /sys/kernel/security/lockdown 2>/dev/null) in *\"[none]\"*|'') ;;"
                + " *) echo \"kernel lockdown is on (secure boot): kexec of an unsigned kernel"
                + " is refused; use boot: reboot\" ;; esac\n");
      }
      case REBOOT -> {
        sh.append(
            "command -v grub-reboot >/dev/null 2>&1 || echo \"grub-reboot is not installed"
                + " (boot: reboot needs GRUB)\"\n");
        sh.append(ENTRY);
        sh.append(
            "[ -n \"$entry\" ] || echo \"no top-level GRUB menu entry for $1 in $cfg"
                + " (set GRUB_DISABLE_SUBMENU=y and run update-grub)\"\n");
        sh.append(
            "grep -qs '^GRUB_DEFAULT=saved' /etc/default/grub || echo \"GRUB_DEFAULT is not"
                + " saved in /etc/default/grub: grub-reboot's one-shot entry would be ignored\"\n");
      }
      case COMMAND -> {}
    }
    return List.of("sh", "-c", oneLine(sh.toString()), "tunelab-boot-check", release);
  }

  /** Boots release $1 the way {@code spec} says; exits non-zero when it cannot start the boot. */
  static List<String> boot(BootSpec spec, String release) {
    String sh =
        switch (spec.method()) {
          case KEXEC ->
              "set -e\n"
                  + FILES
                  + "kexec -l \"$k\" --initrd=\"$i\" --reuse-cmdline\n"
                  + "setsid sh -c 'sleep 2; systemctl kexec || { sync; umount -a -r;"
                  + " sync; kexec -e; }'"
                  + DETACHED;
          case REBOOT ->
              "set -e\n"
                  + ENTRY
                  + "[ -n \"$entry\" ] || { echo \"no GRUB menu entry for $1\" >&2; exit 1; }\n"
                  + "grub-reboot \"$entry\"\n"
                  + "setsid sh -c 'sleep 2; systemctl reboot || reboot'"
                  + DETACHED;
          case COMMAND ->
              "TUNELAB_KERNEL=$1; export TUNELAB_KERNEL\n"
                  + "setsid sh -c 'sleep 2; eval \"$0\"' "
                  + "\"$2\""
                  + DETACHED;
        };
    return spec.method() == BootSpec.Method.COMMAND
        ? List.of("sh", "-c", oneLine(sh), "tunelab-boot", release, spec.command())
        : List.of("sh", "-c", oneLine(sh), "tunelab-boot", release);
  }

  /** The script as one line: the agent's payload is line-framed. */
  private static String oneLine(String script) {
    return script.strip().replace("&\n", "& ").replace("\n", "; ");
  }
}
