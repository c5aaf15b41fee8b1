package io.tunelab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.matrix.Matrix;
import io.tunelab.matrix.MatrixLoader;
import io.tunelab.plan.Cell;
import io.tunelab.plan.ExperimentPlan;
import io.tunelab.plan.MatrixExpander;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.Fixtures;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import io.tunelab.testing.RepoFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The case names docs/reports.md shows ({@code client:ra=2M+server:ra=2M}, {@code
 * nfs:thresh=100M+bg=10M} …) are names the matrix loader accepts, its labels are the labels the
 * expander makes of them, and report, compare --axis and export read them back unambiguously.
 */
class CaseNamesInDocsTest {
  private static final Pattern HEADER = Pattern.compile("(?m)^case: (\\S+)$");

  /** Labels by their axis names in order, e.g. [scheduler, case, bs]. */
  static final Map<List<String>, Set<String>> LABELS = new LinkedHashMap<>();

  /** The page's {@code --axis case=BASE,NEW} values. */
  static final Set<String> SPECS = new LinkedHashSet<>();

  /** Every case name the page shows: in labels, block headers and --axis values. */
  static final Set<String> CASES = new LinkedHashSet<>();

  @TempDir static Path dir;

  @BeforeAll
  static void readThePage() {
    String page = RepoFiles.read(RepoFiles.repoRoot().resolve("docs/reports.md"));
    for (String token : page.split("[\\s()`]+")) {
      if (!token.startsWith("case=") && !token.contains("/case=")) {
        continue;
      }
      if (token.contains(",")) {
        // --axis case=BASE,NEW
        SPECS.add(token);
        CASES.addAll(List.of(token.substring("case=".length()).split(",")));
        continue;
      }
      List<String> axes = new ArrayList<>();
      for (String part : token.split("/")) {
        int eq = part.indexOf('=');
        assertTrue(eq > 0, "a label's part is AXIS=VALUE: " + part + " in " + token);
        axes.add(part.substring(0, eq));
        if (part.startsWith("case=")) {
          CASES.add(part.substring(eq + 1));
        }
      }
      LABELS.computeIfAbsent(axes, a -> new LinkedHashSet<>()).add(token);
    }
    Matcher m = HEADER.matcher(page);
    while (m.find()) {
      CASES.add(m.group(1));
    }
    assertTrue(CASES.contains("client:ra=2M+server:ra=2M"), CASES.toString());
    assertTrue(CASES.contains("nfs:thresh=100M+bg=10M"), CASES.toString());
    assertTrue(LABELS.size() >= 2, LABELS.toString());
  }

  /**
   * A matrix whose axes are {@code axes} with the values the labels give them, and {@code cases}.
   */
  private static Matrix matrixOf(List<String> axes, Set<String> labels, List<String> cases) {
    Map<String, Set<String>> values = new LinkedHashMap<>();
    axes.forEach(a -> values.put(a, new LinkedHashSet<>()));
    values.get("case").addAll(cases);
    for (String label : labels) {
      for (String part : label.split("/")) {
        int eq = part.indexOf('=');
        values.get(part.substring(0, eq)).add(part.substring(eq + 1));
      }
    }
    StringBuilder yaml = new StringBuilder("name: docs-cases\nmatrix:\n");
    StringBuilder command = new StringBuilder("echo");
    values.forEach(
        (axis, vs) -> {
          if (axis.equals("case")) {
            yaml.append("  case:\n");
            vs.forEach(v -> yaml.append("    ").append(v).append(": {}\n"));
          } else {
            yaml.append("  ").append(axis).append(": [").append(String.join(", ", vs));
            yaml.append("]\n");
            command.append(" ${").append(axis).append("}");
          }
        });
    yaml.append("workload:\n  command: ").append(command).append("\n");
    return MatrixLoader.load("docs-cases.yaml", yaml.toString());
  }

  @Test
  void everyCaseNameOfThePageLoads() {
    StringBuilder yaml = new StringBuilder("name: all-cases\nmatrix:\n  case:\n");
    CASES.forEach(c -> yaml.append("    ").append(c).append(": {}\n"));
    yaml.append("workload:\n  command: \"true\"\n");

    Matrix m = MatrixLoader.load("all-cases.yaml", yaml.toString());

    assertEquals(List.copyOf(CASES), m.axes().get(0).values());
  }

  @Test
  void everyLabelOfThePageIsOneTheExpanderMakes() {
    LABELS.forEach(
        (axes, labels) -> {
          Set<String> made = new LinkedHashSet<>();
          MatrixExpander.expand(matrixOf(axes, labels, List.of()))
              .forEach(c -> made.add(c.label()));
          for (String label : labels) {
            assertTrue(made.contains(label), label + " not among " + made);
          }
        });
  }

  @Test
  void reportCompareAndExportReadTheNamesBack() {
    // The page's report example: its labels, and the two cases its --axis example compares.
    List<String> axes = List.of("scheduler", "case", "bs");
    String spec = "case=default,client:ra=2M+server:ra=2M";
    assertTrue(SPECS.contains(spec), SPECS.toString());
    Matrix m = matrixOf(axes, LABELS.get(axes), List.of("default", "client:ra=2M+server:ra=2M"));
    Path db = dir.resolve("cases.db");
    try (JdbcResultStore store = JdbcResultStore.open(db, Fixtures.CLOCK)) {
      long id = store.createExperiment(ExperimentPlan.of(m), Fixtures.TOOL_VERSION);
      Map<Integer, Cell> cells = new LinkedHashMap<>();
      ExperimentPlan.of(m).cells().forEach(c -> cells.put(c.ordinal(), c));
      for (TrialRef t : store.unfinishedTrials(id)) {
        boolean tuned = cells.get(t.cellOrdinal()).params().get("case").startsWith("client:");
        store.startTrial(t.trialId());
        store.commitTrial(
            TrialCommit.of(t.trialId(), Fixtures.gib64((tuned ? 9 : 16) + 0.01 * t.rep())));
      }
      store.setExperimentStatus(id, ExperimentStatus.FINISHED);
    }
    String[] db2 = {"--db", db.toString()};

    Cli.Result compare =
        Cli.tunelab(concat(new String[] {"compare", "--format", "csv", "--axis", spec}, db2));
    assertEquals(0, compare.code(), compare.all());
    assertTrue(compare.out().contains("\nscheduler=mq-deadline/bs=32M,"), compare.out());
    assertFalse(compare.out().contains("ra=2M"), "the compared axis is not in a row's label");

    Cli.Result report =
        Cli.tunelab(concat(new String[] {"report", "--rows", "case", "--format", "csv"}, db2));
    assertEquals(0, report.code(), report.all());
    assertTrue(
        report.out().contains("\nmq-deadline,32M,client:ra=2M+server:ra=2M,9.01,"), report.out());

    Cli.Result export = Cli.tunelab(concat(new String[] {"export"}, db2));
    assertEquals(0, export.code(), export.all());
    String header = export.out().lines().findFirst().orElseThrow();
    assertTrue(header.endsWith(",param:scheduler,param:case,param:bs"), header);
    assertTrue(
        export.out().contains(",scheduler=mq-deadline/case=client:ra=2M+server:ra=2M/bs=32M,"),
        export.out());
  }

  private static String[] concat(String[] a, String[] b) {
    String[] all = new String[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
