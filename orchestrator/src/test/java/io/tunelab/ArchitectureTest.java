package io.tunelab;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packages follow the data flow (matrix → plan → run → agent → store → report) without loops,
 * and the store's technology stays behind its interfaces: checked on the compiled classes, so a
 * fully qualified name in the code counts as much as an import.
 */
class ArchitectureTest {
  /** The SQLite store: its JDBC classes and their helpers. */
  private static final String SQLITE = "io.tunelab.store.sqlite..";

  /** The one class that chooses the store implementation a database path opens. */
  private static final String WIRING = "io.tunelab.cli.Databases";

  private static JavaClasses main;

  @BeforeAll
  static void importMainClasses() {
    main =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.tunelab");
  }

  /** Every package on its own, {@code store} and {@code store.sqlite} apart. */
  @Test
  void packagesAreFreeOfCycles() {
    slices().matching("io.tunelab.(**)").should().beFreeOfCycles().check(main);
  }

  @Test
  void jdbcIsOnlyInTheSqliteStore() {
    noClasses()
        .that()
        .resideOutsideOfPackage(SQLITE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.sql..", "org.sqlite..")
        .because("the store's model and roles are what other stages see; SQL stays behind them")
        .check(main);
  }

  @Test
  void onlyTheCliWiringKnowsTheStoreImplementation() {
    noClasses()
        .that()
        .resideOutsideOfPackage(SQLITE)
        .and()
        .doNotHaveFullyQualifiedName(WIRING)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(SQLITE)
        .because("runs, reports and commands use RunStore and ResultReader, not SQLite")
        .check(main);
  }
}
