package io.tunelab;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packages follow the data flow (matrix → plan → run → agent → store → report) without loops:
 * checked on the compiled classes, so a fully qualified name in the code counts as much as an
 * import.
 */
class ArchitectureTest {
  /** The store's SQLite technology: classes named Sqlite*, with their nested classes. */
  private static final String SQLITE_CLASSES = "io\\.tunelab\\.store\\.Sqlite.*";

  private static JavaClasses main;

  @BeforeAll
  static void importMainClasses() {
    main =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.tunelab");
  }

  @Test
  void packagesAreFreeOfCycles() {
    slices().matching("io.tunelab.(*)..").should().beFreeOfCycles().check(main);
  }

  @Test
  void onlySqliteClassesOfTheStoreUseTheDatabaseDriver() {
    noClasses()
        .that()
        .resideInAPackage("io.tunelab.store..")
        .and()
        .haveNameNotMatching(SQLITE_CLASSES)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.sql..", "org.sqlite..")
        .because("the store's records and roles are what other stages see; SQL stays behind them")
        .check(main);
  }

  @Test
  void reportsReadTheStoreModelNotTheDatabase() {
    noClasses()
        .that()
        .resideInAPackage("io.tunelab.report..")
        .should()
        .dependOnClassesThat()
        .haveNameMatching(SQLITE_CLASSES)
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage("java.sql..", "org.sqlite..")
        .check(main);
  }
}
