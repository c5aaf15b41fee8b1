package io.tunelab.remote;

import io.tunelab.inventory.HostSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import javax.security.auth.login.LoginException;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.util.security.SecurityUtils;

/**
 * The private keys offered to one host, read before connecting so that a missing file or a missing
 * passphrase reads as such. Passphrases come from the environment and go nowhere else.
 *
 * <p>Like OpenSSH: the inventory's {@code identity} and the config's IdentityFile are offered; the
 * default {@code ~/.ssh/id_*} files only when neither names a key; ssh-agent keys always (unless
 * IdentitiesOnly).
 */
final class SshIdentities {
  private final List<KeyPair> keys = new ArrayList<>();
  private final List<String> offered = new ArrayList<>();
  private final List<String> skipped = new ArrayList<>();

  private SshIdentities() {}

  /**
   * @param configured IdentityFile paths from the SSH config, already expanded
   * @param agent whether an ssh-agent is there to sign with keys whose files cannot be opened
   * @throws HostRefusedException for a problem with the inventory's own identity
   */
  static SshIdentities load(
      HostSpec spec, List<String> configured, boolean agent, SshOptions options) {
    SshIdentities ids = new SshIdentities();
    String variable = spec.passphraseVariable();
    String passphrase = options.env().apply(variable);
    if (spec.identity() != null) {
      Path file = options.expand(spec.identity());
      if (!Files.isRegularFile(file)) {
        throw new HostRefusedException(
            spec.name(),
            "identity file "
                + file
                + " does not exist; fix identity: for "
                + spec.name()
                + " in "
                + spec.source());
      }
      Outcome outcome = ids.add(file, passphrase);
      if (outcome == Outcome.UNPROTECTED) {
        throw new HostRefusedException(
            spec.name(),
            "identity file "
                + file
                + " can be read by others ("
                + modeOf(file)
                + "); SSH refuses such keys: chmod 600 "
                + file);
      }
      if (outcome == Outcome.WRONG_PASSPHRASE) {
        throw new HostRefusedException(
            spec.name(),
            "identity file " + file + ": the passphrase in $" + variable + " does not open it");
      }
      if (outcome == Outcome.ENCRYPTED && !agent) {
        throw new HostRefusedException(
            spec.name(),
            "identity file "
                + file
                + " is protected by a passphrase; put it in the environment variable "
                + variable
                + " or add the key to ssh-agent");
      }
      if (outcome == Outcome.UNREADABLE) {
        throw new HostRefusedException(
            spec.name(), "identity file " + file + " is not a private key SSH can use");
      }
      ids.note(outcome, file, variable);
    }
    List<Path> others = new ArrayList<>();
    configured.forEach(p -> others.add(options.expand(p)));
    if (spec.identity() == null && others.isEmpty()) {
      others.addAll(options.defaultIdentities());
    }
    for (Path file : others) {
      if (Files.isRegularFile(file)) {
        ids.note(ids.add(file, passphrase), file, variable);
      }
    }
    return ids;
  }

  /**
   * The default {@code ~/.ssh/id_*} keys that open without a passphrase or with {@code
   * TUNELAB_SSH_PASSPHRASE}: what SSHD offers to ProxyJump hosts, which have no inventory entry.
   */
  static List<KeyPair> defaultKeys(SshOptions options) {
    SshIdentities ids = new SshIdentities();
    String passphrase = options.env().apply(HostSpec.DEFAULT_PASSPHRASE_ENV);
    for (Path file : options.defaultIdentities()) {
      if (Files.isRegularFile(file)) {
        ids.add(file, passphrase);
      }
    }
    return ids.keys;
  }

  List<KeyPair> keys() {
    return keys;
  }

  /** The key files offered, for an authentication failure message. */
  List<String> offered() {
    return offered;
  }

  /** Key files that could not be opened, each with the reason. */
  List<String> skipped() {
    return skipped;
  }

  private enum Outcome {
    LOADED,
    UNPROTECTED,
    ENCRYPTED,
    WRONG_PASSPHRASE,
    UNREADABLE
  }

  private void note(Outcome outcome, Path file, String variable) {
    switch (outcome) {
      case LOADED -> offered.add(file.toString());
      case UNPROTECTED -> skipped.add(file + " (readable by others: " + modeOf(file) + ")");
      case ENCRYPTED -> skipped.add(file + " (needs its passphrase in $" + variable + ")");
      case WRONG_PASSPHRASE ->
          skipped.add(file + " (the passphrase in $" + variable + " is wrong)");
      case UNREADABLE -> skipped.add(file + " (not a key SSH can use)");
    }
  }

  private Outcome add(Path file, String passphrase) {
    if (openToOthers(file)) {
      return Outcome.UNPROTECTED;
    }
    try {
      keys.add(read(file, null));
      return Outcome.LOADED;
    } catch (LoginException e) {
      // encrypted: SSHD asked for a passphrase that was not given
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      return Outcome.UNREADABLE;
    }
    if (passphrase == null || passphrase.isEmpty()) {
      return Outcome.ENCRYPTED;
    }
    try {
      keys.add(read(file, passphrase));
      return Outcome.LOADED;
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      return Outcome.WRONG_PASSPHRASE;
    }
  }

  /** As OpenSSH: a private key that group or others may read or write is not used. */
  private static boolean openToOthers(Path file) {
    try {
      Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
      return mode.stream().anyMatch(p -> !p.name().startsWith("OWNER_"));
    } catch (IOException | UnsupportedOperationException e) {
      return false; // no POSIX modes to judge by: reading the key says the rest
    }
  }

  private static String modeOf(Path file) {
    try {
      return "mode " + PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    } catch (IOException | UnsupportedOperationException e) {
      return "mode unknown";
    }
  }

  private static KeyPair read(Path file, String passphrase)
      throws IOException, GeneralSecurityException {
    try (InputStream in = Files.newInputStream(file)) {
      Iterable<KeyPair> pairs =
          SecurityUtils.loadKeyPairIdentities(
              null,
              NamedResource.ofName(file.toString()),
              in,
              passphrase == null ? null : FilePasswordProvider.of(passphrase));
      Iterator<KeyPair> it = pairs == null ? null : pairs.iterator();
      if (it == null || !it.hasNext()) {
        throw new IOException("no key in " + file);
      }
      return it.next();
    }
  }
}
