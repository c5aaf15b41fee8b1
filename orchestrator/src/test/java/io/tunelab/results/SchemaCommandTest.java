package io.tunelab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.JsonSchemas;
import org.junit.jupiter.api.Test;

/** {@code tunelab schema} prints docs/schema byte for byte: one source of truth. */
class SchemaCommandTest {
  @Test
  void printsTheMatrixSchemaOfTheDocs() {
    Cli.Result r = Cli.tunelab("schema", "matrix");

    assertEquals(0, r.code(), r.err());
    assertEquals(JsonSchemas.text("matrix"), r.out());
  }

  @Test
  void printsTheInventorySchemaOfTheDocs() {
    Cli.Result r = Cli.tunelab("schema", "hosts");

    assertEquals(0, r.code(), r.err());
    assertEquals(JsonSchemas.text("hosts"), r.out());
  }

  @Test
  void anUnknownKindIsBadUsage() {
    Cli.Result r = Cli.tunelab("schema", "inventory");

    assertEquals(2, r.code());
    assertEquals(
        "tunelab: no schema 'inventory': write tunelab schema matrix or tunelab schema hosts\n",
        r.err());
  }

  @Test
  void theTopLevelHelpListsIt() {
    assertTrue(Cli.tunelab("--help").out().contains("\n  schema "));
  }
}
