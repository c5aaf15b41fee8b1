package io.tunelab.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.TunelabException;
import io.tunelab.plan.MatrixExpander;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MatrixLoaderTest {
  private static final String WORKLOAD = "workload: {command: run}\n";

  private static String fails(String yaml) {
    return assertThrows(MatrixException.class, () -> MatrixLoader.load("m.yaml", yaml))
        .getMessage();
  }

  @Test
  void defaultsApply() {
    Matrix m = MatrixLoader.load("m.yaml", "name: d\n" + WORKLOAD);
    assertEquals(Map.of("local", "local"), m.roles());
    assertEquals(1, m.repeat());
    assertEquals(0, m.warmup());
    assertEquals(Matrix.Order.SEQUENTIAL, m.order());
    assertEquals(0, m.seed());
    assertEquals(List.of(), m.beforeTrial());
    assertNull(m.hostsFile());
    Workload.Job job = m.workload().jobs().get(0);
    Workload.Command w = (Workload.Command) job.work();
    assertEquals("cmd", job.name());
    assertEquals("local", job.on());
    assertEquals("none", w.parser());
    assertEquals("1", job.processes());
    assertEquals("name: d\n" + WORKLOAD, m.text());
    assertEquals("m.yaml", m.source());
  }

  @Test
  void shuffleWithoutSeedDrawsAPositive31BitSeed() {
    for (int i = 0; i < 20; i++) {
      long seed = MatrixLoader.load("m.yaml", "name: s\norder: shuffle\n" + WORKLOAD).seed();
      assertTrue(seed > 0 && seed <= Integer.MAX_VALUE, "seed " + seed);
    }
    assertEquals(
        -7, MatrixLoader.load("m.yaml", "name: s\norder: shuffle\nseed: -7\n" + WORKLOAD).seed());
  }

  @Test
  void roundsWithoutSeedDrawOneToo() {
    Matrix m = MatrixLoader.load("m.yaml", "name: r\norder: rounds\n" + WORKLOAD);
    assertEquals(Matrix.Order.ROUNDS, m.order());
    assertTrue(m.seed() > 0 && m.seed() <= Integer.MAX_VALUE, "seed " + m.seed());
  }

  @Test
  void problemsAreCollectedAndSortedByPosition() {
    MatrixException e =
        assertThrows(
            MatrixException.class,
            () ->
                MatrixLoader.load(
                    "m.yaml",
                    "workload:\n  command: run ${nope}\n" + "name: 'bad name'\n" + "repeat: x\n"));
    assertEquals(TunelabException.BAD_INPUT, e.exitCode());
    assertEquals(3, e.problems().size());
    assertEquals(List.of(2, 3, 4), e.problems().stream().map(p -> p.position().line()).toList());
  }

  @Test
  void emptyFileAndNonMapAreOneProblem() {
    assertEquals(
        "m.yaml:1:1: (yaml): the file is empty: a matrix needs at least name and workload",
        fails("# nothing\n"));
    assertEquals(
        "m.yaml:1:1: (top level): expected a map (key: value), got a list", fails("- a\n"));
  }

  @Test
  void onlyOneDocument() {
    assertEquals(
        "m.yaml:4:1: (yaml): only one YAML document is allowed in a matrix",
        fails("name: a\n" + WORKLOAD + "---\nname: b\n"));
  }

  @Test
  void severalRolesNeedOn() {
    String message =
        fails(
            "name: r\nroles: {a: local, b: h2}\nsetup:\n  - run: echo\nworkload: {command: run}\n");
    assertEquals(
        "m.yaml:4:5: setup[1].on: required when there are several roles (a, b)\n"
            + "m.yaml:5:11: workload.on: required when there are several roles (a, b)",
        message);
  }

  @Test
  void caseParametersMustBeSetByEveryCaseWhenUsed() {
    assertEquals(
        "m.yaml:5:5: matrix.case.b: case 'b' does not set parameter 't', which workload.command"
            + " uses (line 7)",
        fails(
            "name: c\n"
                + "matrix:\n"
                + "  case:\n"
                + "    a: {t: 1}\n"
                + "    b: {}\n"
                + "workload:\n"
                + "  command: run ${t}\n"));
    // unused, it may be missing
    MatrixLoader.load("m.yaml", "name: c\nmatrix:\n  case:\n    a: {t: 1}\n    b: {}\n" + WORKLOAD);
  }

  @Test
  void procOnlyInWorkload() {
    assertEquals(
        "m.yaml:3:3: settings.local.block.${proc}.scheduler: ${proc} (the process number) is"
            + " known only in workload fields",
        fails("name: p\nsettings:\n  local.block.${proc}.scheduler: none\n" + WORKLOAD));
  }

  @Test
  void ddSizesFromCaseParametersArePairedByCase() {
    String ok =
        "name: dd\nmatrix:\n  case:\n"
            + "    a: {b: 3M, t: 3M}\n"
            + "    b: {b: 1M, t: 4M}\n"
            + "workload:\n  dd: {input: /dev/zero, output: /dev/null, bs: '${b}', total: '${t}'}\n";
    assertEquals(2, MatrixExpander.expand(MatrixLoader.load("m.yaml", ok)).size());
  }

  @Test
  void tooManyCellsIsRefusedBeforeExpanding() {
    StringBuilder y = new StringBuilder("name: huge\nmatrix:\n");
    for (int a = 0; a < 7; a++) {
      y.append("  a").append(a).append(": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n");
    }
    assertEquals(
        "m.yaml:2:1: matrix: the axes cross to more than 1000000 cells; split the experiment",
        fails(y + WORKLOAD));
  }

  @Test
  void aProcKnobOutsideProcSysAndProcFsIsRefusedAtLoad() {
    assertEquals(
        "m.yaml:3:3: settings.local.proc:/proc/1/root/etc/passwd: knob"
            + " 'proc:/proc/1/root/etc/passwd': a proc: path must be under /proc/sys/ or /proc/fs/",
        fails("name: p\nsettings:\n  local.proc:/proc/1/root/etc/passwd: x\n" + WORKLOAD));
  }

  @Test
  void knobValuesMayHoldSpacesAndVariables() {
    Matrix m =
        MatrixLoader.load(
            "m.yaml",
            "name: k\nmatrix:\n  n: [1]\nsettings:\n  local.vm.x: '4096 87380 ${n}'\n" + WORKLOAD);
    assertEquals("4096 87380 ${n}", m.settings().get("local.vm.x"));
  }

  @Test
  void blockScalarCommandsLoseTheirTrailingNewline() {
    Matrix m = MatrixLoader.load("m.yaml", "name: b\nworkload:\n  command: |\n    run it\n");
    assertEquals("run it", ((Workload.Command) m.workload().jobs().get(0).work()).command());
  }

  @Test
  void theNewSectionsAreModelled() {
    Matrix m =
        MatrixLoader.load(
            "m.yaml",
            "name: n\n"
                + "roles: {a: local, b: h2}\n"
                + "setup:\n  - {on: a, run: \"ls /dev/sd?\", capture: \"devs[]\"}\n"
                + "cell_setup:\n  - {on: b, run: login, capture: lun}\n"
                + "cell_teardown:\n  - {on: b, run: logout}\n"
                + "before_trial: [sync, {on: a, run: \"rm -f /tmp/x${rep}\"}]\n"
                + "after_trial: [drop_caches]\n"
                + "monitors: [vmstat, {run: iostat, on: b, interval: 1m}]\n"
                + "workload:\n  on: a\n  command: read /dev/${lun}\n");
    assertEquals(true, m.setup().get(0).captureList());
    assertEquals("devs", m.setup().get(0).capture());
    assertEquals("lun", m.cellSetup().get(0).capture());
    assertEquals(false, m.cellSetup().get(0).captureList());
    assertEquals("logout", m.cellTeardown().get(0).run());
    assertEquals(TrialStep.Kind.SYNC, m.beforeTrial().get(0).kind());
    assertEquals("a", m.beforeTrial().get(1).command().on());
    assertEquals("rm -f /tmp/x${rep}", m.beforeTrial().get(1).text());
    assertEquals(TrialStep.Kind.DROP_CACHES, m.afterTrial().get(0).kind());
    assertEquals(List.of("a", "b"), m.monitors().get(0).roles());
    assertEquals(java.time.Duration.ofSeconds(1), m.monitors().get(0).interval());
    assertEquals(List.of("b"), m.monitors().get(1).roles());
    assertEquals(java.time.Duration.ofMinutes(1), m.monitors().get(1).interval());
  }

  @Test
  void everyCaseMustSetAParameterThatAJobKeyUses() {
    assertEquals(
        "m.yaml:5:5: matrix.case.b: case 'b' does not set parameter 'cls', which"
            + " workload.ionice uses (line 7)",
        fails(
            "name: c\n"
                + "matrix:\n"
                + "  case:\n"
                + "    a: {cls: idle}\n"
                + "    b: {}\n"
                + "workload:\n"
                + "  ionice: ${cls}\n"
                + "  command: run\n"));
  }

  @Test
  void aJobFileNeedsAReaderOfFiles() {
    assertEquals(
        "m.yaml:2:27: workload.fio.jobfile: cannot read 'a.fio': job files cannot be read here",
        fails("name: f\nworkload: {fio: {jobfile: a.fio}}\n"));
  }
}
