package io.tunelab.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@code mvn test} needs no root and skips nothing for the lack of it: every test class that asks
 * for root is an {@link Integration} test, which only {@code mvn verify} runs.
 */
class IntegrationTagTest {
  private static final List<String> ROOT_FIXTURES =
      List.of(
          "io.tunelab.it.LoopDiskExtension",
          "io.tunelab.it.SshLabExtension",
          "io.tunelab.it.PostgresLab");

  @Test
  void everyTestThatNeedsRootIsAnIntegrationTest() throws Exception {
    JavaClasses tests =
        new ClassFileImporter()
            .importPath(
                Path.of(
                    IntegrationTagTest.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI()));
    TreeSet<String> askers = new TreeSet<>();
    TreeSet<String> untagged = new TreeSet<>();
    for (JavaClass c : tests) {
      boolean asks =
          c.getMethodCallsFromSelf().stream()
                  .anyMatch(
                      call ->
                          List.of(
                                  "io.tunelab.it.Lab.requireRoot",
                                  Prerequisites.class.getName() + ".root")
                              .contains(
                                  call.getTarget().getOwner().getName() + "." + call.getName()))
              // A fixture extension (loop disk, SSH lab, PostgreSQL lab) asks for root for it.
              || c.getFields().stream()
                  .anyMatch(f -> ROOT_FIXTURES.contains(f.getRawType().getName()));
      JavaClass top = c;
      while (top.getEnclosingClass().isPresent()) {
        top = top.getEnclosingClass().get();
      }
      // Fixtures that start a lab for the tests (Lab, VmLab) ask for root on their behalf.
      boolean test = top.getSimpleName().endsWith("Test") || top.getSimpleName().endsWith("IT");
      if (top.getSimpleName().endsWith("IT") && !top.isAnnotatedWith(Integration.class)) {
        // Surefire runs no *IT, and failsafe only the tagged: an untagged IT runs nowhere.
        untagged.add(top.getName());
      }
      if (!asks || !test) {
        continue;
      }
      askers.add(top.getName());
      if (!top.isAnnotatedWith(Integration.class)) {
        untagged.add(top.getName());
      }
    }
    assertTrue(askers.contains("io.tunelab.it.EndToEndTest"), "found " + askers);
    assertTrue(askers.contains("io.tunelab.it.QuickstartTest"), "found " + askers);
    assertEquals(new TreeSet<String>(), untagged, "ask for root but are not @Integration");
  }
}
