package io.tunelab.remote;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.sshd.common.util.security.SecurityUtils;
import org.junit.jupiter.api.Test;

/** ed25519 keys are served by BouncyCastle; the unmaintained net.i2p eddsa is not shipped. */
class Ed25519ProviderTest {
  @Test
  void ed25519ComesFromBouncyCastleAndNotFromNetI2p() {
    assertTrue(SecurityUtils.isEDDSACurveSupported(), "SSHD sees no ed25519 support");
    assertTrue(SecurityUtils.isBouncyCastleRegistered(), "SSHD did not register BouncyCastle");
    assertThrows(
        ClassNotFoundException.class, () -> Class.forName("net.i2p.crypto.eddsa.EdDSAEngine"));
  }
}
