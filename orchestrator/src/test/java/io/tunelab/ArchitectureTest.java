package io.tunelab;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
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

  /** The PostgreSQL store. */
  private static final String POSTGRES = "io.tunelab.store.postgres..";

  /** The SQL both stores share: migrations, dialects, the copy of an experiment. */
  private static final String SQL = "io.tunelab.store.sql..";

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

  /** Every package on its own, {@code store}, {@code store.sql} and each store apart. */
  @Test
  void packagesAreFreeOfCycles() {
    slices().matching("io.tunelab.(**)").should().beFreeOfCycles().check(main);
  }

  @Test
  void jdbcIsOnlyInTheStores() {
    noClasses()
        .that()
        .resideOutsideOfPackages(SQLITE, POSTGRES, SQL)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.sql..", "org.sqlite..", "org.postgresql..")
        .because("the store's model and roles are what other stages see; SQL stays behind them")
        .check(main);
  }

  @Test
  void onlyTheCliWiringKnowsTheStoreImplementation() {
    noClasses()
        .that()
        .resideOutsideOfPackages(SQLITE, POSTGRES, SQL)
        .and()
        .doNotHaveFullyQualifiedName(WIRING)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(SQLITE, POSTGRES, SQL)
        .because("runs, reports and commands use RunStore and ResultReader, not SQLite")
        .check(main);
  }

  /**
   * The run's parts share a {@code RunContext} instead of passing the same objects one by one; a
   * record's fields are named where it is made, so records are left out.
   */
  @Test
  void noConstructorInRunTakesMoreThanSixParameters() {
    List<String> wide =
        main.stream()
            .filter(c -> c.getPackageName().equals("io.tunelab.run"))
            .filter(c -> !c.isAnonymousClass() && !isRecord(c))
            .flatMap(c -> c.getConstructors().stream())
            .filter(k -> k.getRawParameterTypes().size() > 6)
            .map(k -> k.getFullName())
            .toList();
    assertEquals(List.of(), wide);
  }

  private static boolean isRecord(JavaClass c) {
    return c.getRawSuperclass().map(s -> s.isEquivalentTo(Record.class)).orElse(false);
  }
}
