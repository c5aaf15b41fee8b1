package io.tunelab.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tunelab.yaml.Position;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SubstitutionTest {
  private static final Position AT = new Position("m.yaml", 7, 3);

  @Test
  void replacesEveryReference() {
    assertEquals(
        "/dev/loop3 bs=64M rep=2",
        Substitution.apply(
            "/dev/${dev} bs=${bs} rep=${rep}",
            Map.of("dev", "loop3", "bs", "64M", "rep", "2"),
            AT));
  }

  @Test
  void leavesOtherDollarsToTheShell() {
    assertEquals(
        "echo $HOME $(date) $1 $", Substitution.apply("echo $HOME $(date) $1 $", Map.of(), AT));
  }

  @Test
  void doubleDollarBraceIsALiteralDollarBrace() {
    assertEquals(
        "echo ${HOME:-/root} x",
        Substitution.apply("echo $${HOME:-/root} ${v}", Map.of("v", "x"), AT));
    assertEquals(Set.of(), Substitution.names("echo $${HOME:-/root}"));
  }

  @Test
  void valuesAreNotScannedAgain() {
    assertEquals("${b}", Substitution.apply("${a}", Map.of("a", "${b}", "b", "no"), AT));
  }

  @Test
  void unknownNameNamesThePositionAndSuggests() {
    MatrixException e =
        assertThrows(
            MatrixException.class,
            () -> Substitution.apply("/dev/${devv}", Map.of("dev", "x"), AT));
    assertEquals(
        "m.yaml:7:3: ${devv}: unknown variable 'devv'; did you mean 'dev'?", e.getMessage());
    assertEquals(2, e.exitCode());
  }

  @Test
  void malformedReferencesAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> Substitution.names("a ${b"));
    assertThrows(IllegalArgumentException.class, () -> Substitution.names("${a:-b}"));
    assertThrows(IllegalArgumentException.class, () -> Substitution.names("${1x}"));
    MatrixException e =
        assertThrows(MatrixException.class, () -> Substitution.apply("x ${", Map.of(), AT));
    assertEquals(
        "m.yaml:7:3: x ${: unterminated '${' in 'x ${' (write '$${' for a literal '${')",
        e.getMessage());
  }

  @Test
  void namesInOrderOfFirstUse() {
    assertEquals(List.of("b", "a"), List.copyOf(Substitution.names("${b}/${a}/${b}")));
    assertEquals(List.of("b", "a", "b"), Substitution.references("${b}/${a}/${b}"));
  }

  @Test
  void listsAreUsedAsEachElementTheProcessesElementOrTheirCount() {
    Map<String, String> vars =
        Map.of("devs", Substitution.listValue(List.of("sdb", "sdc")), "proc", "1", "n", "x");
    assertEquals(
        List.of("client.block.sdb.scheduler", "client.block.sdc.scheduler"),
        Substitution.expand("client.block.${devs[*]}.scheduler", vars, AT));
    assertEquals(List.of("plain x"), Substitution.expand("plain ${n}", vars, AT));
    assertEquals("/dev/sdc of 2", Substitution.apply("/dev/${devs[proc]} of ${#devs}", vars, AT));
    assertEquals(List.of(), Substitution.expand("${e[*]}", Map.of("e", ""), AT));
    assertEquals("0", Substitution.apply("${#e}", Map.of("e", ""), AT));
    assertEquals(List.of("devs", "n"), List.copyOf(Substitution.names("${#devs}${devs[*]}${n}")));
  }

  @Test
  void aListElementBeyondTheListFailsNamingTheProcess() {
    Map<String, String> vars = Map.of("devs", "sdb", "proc", "3");
    MatrixException e =
        assertThrows(MatrixException.class, () -> Substitution.apply("${devs[proc]}", vars, AT));
    assertEquals(
        "m.yaml:7:3: ${devs[proc]}: process 3 has no element of list 'devs', which has 1: run at"
            + " most ${#devs} processes",
        e.getMessage());
    assertThrows(MatrixException.class, () -> Substitution.apply("${devs[*]}", vars, AT));
  }

  @Test
  void otherIndexesAreRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Substitution.names("${devs[0]}"));
    assertEquals(
        "'${devs[0]}' is not a variable: a list is used as ${devs[*]}, ${devs[proc]} or ${#devs}",
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Substitution.names("${#}"));
    assertThrows(IllegalArgumentException.class, () -> Substitution.names("${[*]}"));
  }
}
