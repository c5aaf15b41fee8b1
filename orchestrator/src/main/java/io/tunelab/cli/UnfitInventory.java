package io.tunelab.cli;

import io.tunelab.TunelabException;

/**
 * The inventory has no host for some of a matrix's roles (exit code 3): the experiment does not fit
 * this testbed, though the testbed itself may be sound, so a worker goes on to the next one.
 */
final class UnfitInventory extends TunelabException {
  UnfitInventory(String message) {
    super(HOST_REFUSED, message);
  }
}
