package io.tunelab.inventory;

import io.tunelab.yaml.DocumentException;
import io.tunelab.yaml.Problem;
import java.util.List;

/** An inventory that cannot be used, with every problem found, one line each, in file order. */
public final class InventoryException extends DocumentException {
  public InventoryException(List<Problem> problems) {
    super(problems);
  }
}
