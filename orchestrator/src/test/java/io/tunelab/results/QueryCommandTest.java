package io.tunelab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.store.Fixtures;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import io.tunelab.testing.RepoFiles;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tunelab query} as people keep queries: in files, starting with a comment, read from
 * standard input, with an experiment id as a parameter; and nothing but reading.
 */
class QueryCommandTest {
  @TempDir static Path dir;
  static String db;

  @BeforeAll
  static void buildDatabase() {
    db = dir.resolve("study.db").toString();
    try (JdbcResultStore store = JdbcResultStore.open(Path.of(db), Fixtures.CLOCK)) {
      Fixtures.readaheadStudy(store);
    }
  }

  private static Cli.Result query(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "query";
    System.arraycopy(args, 0, all, 1, args.length);
    all[args.length + 1] = "--db";
    all[args.length + 2] = db;
    return Cli.tunelab(all);
  }

  private static String saved(String name) {
    return RepoFiles.repoRoot().resolve("db/queries").resolve(name).toString();
  }

  private static void refused(Cli.Result r, String message) {
    assertEquals(2, r.code(), r.all());
    assertEquals("", r.out());
    assertTrue(r.err().contains(message), "expected '" + message + "' in: " + r.err());
    assertFalse(r.err().contains("\tat "), r.err());
  }

  @Test
  void aSavedQueryRunsFromItsFileAndAsAnArgumentStartingWithAComment() throws Exception {
    Cli.Result fromFile = query("--format", "csv", "--file", saved("01-experiments.sql"));
    assertEquals(0, fromFile.code(), fromFile.all());
    assertTrue(fromFile.out().startsWith("experiment_id,name,status,"), fromFile.out());
    assertEquals(3, fromFile.out().lines().count(), fromFile.out());

    // tunelab query "$(cat db/queries/01-experiments.sql)"
    Cli.Result asArgument =
        query("--format", "csv", Files.readString(Path.of(saved("01-experiments.sql"))));
    assertEquals(0, asArgument.code(), asArgument.all());
    assertEquals(fromFile.out(), asArgument.out());
  }

  @Test
  void standardInputIsTheStatementAfterADash() {
    InputStream stdin = System.in;
    try {
      for (String dash : new String[] {"-", "--file=-"}) {
        System.setIn(
            new ByteArrayInputStream(
                "-- how many\nSELECT count(*) AS n FROM experiments;\n"
                    .getBytes(StandardCharsets.UTF_8)));
        Cli.Result r = query("--format", "csv", dash);
        assertEquals(0, r.code(), r.all());
        assertEquals("n\n2\n", r.out());
      }
    } finally {
      System.setIn(stdin);
    }
  }

  @Test
  void parametersComeFromTheCommandLine() {
    Cli.Result r =
        query(
            "--format",
            "csv",
            "--file",
            saved("02-cell-throughput.sql"),
            "--param",
            "experiment=1");
    assertEquals(0, r.code(), r.all());
    assertTrue(r.out().startsWith("ordinal,label,n,mib_per_s,std,cv_pct\n"), r.out());
    assertEquals(5, r.out().lines().count(), r.out());

    Cli.Result named =
        query(
            "--format",
            "csv",
            "SELECT name, :note AS note FROM experiments WHERE id = $id",
            "--param",
            ":note=64M",
            "--param",
            "id=2");
    assertEquals("name,note\nreadahead,64M\n", named.out(), named.all());
  }

  @Test
  void aMissingOrMalformedParameterIsBadInput() {
    refused(
        query("--file", saved("02-cell-throughput.sql")),
        "tunelab: the statement's parameter :experiment has no value: give --param"
            + " experiment=VALUE");
    refused(
        query("--file", saved("11-regressions-first.sql"), "--param", "base=1"),
        "parameter :new has no value");
    refused(query("SELECT :x", "--param", "x"), "--param takes NAME=VALUE");
    refused(query("SELECT :x", "--param", "x y=1"), "--param takes NAME=VALUE");
    refused(query("SELECT :x", "--param", "x=1", "--param", ":x=2"), "--param x is given twice");
  }

  @Test
  void vacuumIntoWritesNothing() {
    Path copy = dir.resolve("copy.db");
    refused(
        query("VACUUM INTO '" + copy + "'"),
        "tunelab: tunelab query runs only read statements (SELECT, WITH … SELECT, VALUES,"
            + " EXPLAIN, read-only PRAGMAs), not VACUUM");
    refused(query("ATTACH '" + copy + "' AS c"), "not ATTACH");
    refused(query("PRAGMA journal_mode = DELETE"), "PRAGMA journal_mode is run only to read");
    refused(query("DELETE FROM samples"), "tunelab query is read-only");
    assertFalse(Files.exists(copy));
    assertEquals("n\n2\n", query("--format", "csv", "SELECT count(*) AS n FROM experiments").out());
  }

  @Test
  void theStatementComesFromExactlyOnePlace() {
    refused(
        query("SELECT 1", "--file", saved("01-experiments.sql")),
        "give the statement either as an argument or with --file, not both");
    refused(query(), "give the statement as an argument, with --file FILE, or as -");
    refused(
        query("--file", dir.resolve("nowhere.sql").toString()),
        "nowhere.sql: cannot read the statement: no such file");
    refused(query("--formt=csv"), "Unknown option: '--formt=csv'");
  }
}
