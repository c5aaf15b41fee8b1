package io.tunelab.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.tunelab.testing.RepoFiles;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A resumed experiment's matrix: the recorded seed, every other component as loaded. */
class MatrixWithSeedTest {
  @Test
  void withSeedChangesTheSeedAndNothingElse() throws Exception {
    Path file = RepoFiles.testResources("matrix/valid/kernel-axis.yaml");
    Matrix m = MatrixLoader.load(file.toString(), Files.readString(file));
    Matrix resumed = m.withSeed(m.seed() + 17);

    assertEquals(m.seed() + 17, resumed.seed());
    for (RecordComponent c : Matrix.class.getRecordComponents()) {
      Object was = c.getAccessor().invoke(m);
      Object now = c.getAccessor().invoke(resumed);
      if (c.getName().equals("seed")) {
        assertNotEquals(was, now);
      } else {
        assertEquals(was, now, c.getName());
      }
    }
  }
}
