package io.tunelab.agents;

import static io.tunelab.agents.AgentHarness.tab;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.agents.AgentHarness.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The agent's value functions called directly: seconds, the journaled form of a choice list, values
 * read as the wire format has them, write errors as rows show them, and the kernel's exclusive
 * pairs.
 */
class ValueRulesTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void secondsAreDigitsWithOneOptionalFraction(String shell, @TempDir Path dir) {
    Result result =
        new AgentLibrary(shell, dir)
            .run(
                """
                for s; do
                  if is_seconds "$s"; then to_ns "$s"; echo "$s=$NANOSECONDS"; else echo "$s=no"; fi
                done
                """,
                "1",
                "0.5",
                ".5",
                "010",
                "08.09",
                "0.000000001",
                "2.1234567891",
                "",
                ".",
                "1.2.3",
                "-1",
                "1e3",
                "5s");

    assertEquals(
        List.of(
            "1=1000000000",
            "0.5=500000000",
            ".5=500000000",
            "010=10000000000",
            "08.09=8090000000",
            "0.000000001=1",
            "2.1234567891=2123456789",
            "=no",
            ".=no",
            "1.2.3=no",
            "-1=no",
            "1e3=no",
            "5s=no"),
        result.lines(),
        result.stderr());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aChoiceListIsJournaledAsItsSelectedEntry(String shell, @TempDir Path dir) {
    Result result =
        new AgentLibrary(shell, dir)
            .run(
                """
                for v; do selected_entry "$v"; printf '%s\\n' "$SELECTED"; done
                """,
                "[none] mq-deadline kyber",
                "none mq-deadline [kyber] bfq",
                "always [madvise] never",
                "4096",
                "4096 87380 6291456",
                "[a b]",
                "[]");

    assertEquals(
        List.of("none", "kyber", "madvise", "4096", "4096 87380 6291456", "[a b]", "[]"),
        result.lines(),
        result.stderr());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void valuesAreOneLineWithTrailingEmptyLinesDropped(String shell, @TempDir Path dir)
      throws IOException {
    Path one = Files.writeString(dir.resolve("one"), "20\n");
    Path lines = Files.writeString(dir.resolve("lines"), "a\nb\n");
    Path gaps = Files.writeString(dir.resolve("gaps"), "a\n\nb\n\n\n");
    Path unterminated = Files.writeString(dir.resolve("unterminated"), "4096\t87380");
    Path missing = dir.resolve("missing");

    Result result =
        new AgentLibrary(shell, dir)
            .run(
                """
                get_values "$@"
                printf '%s\\n' "$VALUES"
                """,
                one.toString(),
                lines.toString(),
                gaps.toString(),
                unterminated.toString(),
                missing.toString());

    assertEquals(List.of("=20", "=a b", "=a  b", "=4096\t87380", "="), result.lines());
    assertTrue(result.stderr().contains("cannot read " + missing), result.stderr());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void sysfsValuesReadByBuiltinsMatchTheOtherReaders(String shell, @TempDir Path dir) {
    String[] files = {"/sys/class/net/lo/mtu", "/sys/class/net/lo/address"};

    Result result =
        new AgentLibrary(shell, dir)
            .run(
                """
                get_values "$@"
                printf 'builtin\\t%s\\n' "$VALUES"
                get_values "$@" /proc/sys/vm/dirty_ratio
                printf 'awk\\t%s\\n' "$VALUES"
                for f; do get_value "$f"; printf 'cat\\t=%s\\n' "$VALUE"; done
                """,
                files);

    List<String> lines = result.lines();
    assertEquals(7, lines.size(), lines.toString());
    String mtu = lines.get(0).substring("builtin\t".length());
    String address = lines.get(1);
    assertTrue(mtu.matches("=[0-9]+"), mtu);
    assertTrue(address.matches("=[0-9a-f:]+"), address);
    assertEquals(tab("awk", mtu), lines.get(2));
    assertEquals(address, lines.get(3));
    assertTrue(lines.get(4).matches("=[0-9]+"), lines.get(4));
    assertEquals(tab("cat", mtu), lines.get(5));
    assertEquals(tab("cat", address), lines.get(6));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void aFailedWriteReportsTheReasonWithoutTheShellsPrefix(String shell, @TempDir Path dir)
      throws IOException {
    Path knob = Files.writeString(dir.resolve("knob"), "1\n");
    Path directory = Files.createDirectories(dir.resolve("directory"));
    Files.createDirectories(dir.resolve("state/tmp"));

    Result result =
        new AgentLibrary(shell, dir)
            .run(
                """
                SCRATCH=$TUNELAB_STATE/tmp
                for f; do
                  if put_value "$f" 2; then echo written; else printf '%s\\n' "$FAIL_REASON"; fi
                done
                for m in 'x.sh: line 12: /sys/a: Invalid argument' \\
                  'x.sh: 12: cannot create /sys/a: Device or resource busy' \\
                  'cat: write error: Invalid argument' ''; do
                  tidy_message "$m" 'write failed'
                  printf '%s\\n' "$FAIL_REASON"
                done
                """,
                knob.toString(), dir.resolve("missing").toString(), directory.toString());

    List<String> lines = result.lines();
    assertEquals(7, lines.size(), lines + result.stderr());
    assertEquals("written", lines.get(0));
    assertEquals("2\n", AgentHarness.read(knob));
    assertEquals("no such file or directory", lines.get(1));
    assertTrue(lines.get(2).endsWith(directory + ": Is a directory"), lines.get(2));
    assertFalse(lines.get(2).contains("line "), lines.get(2));
    assertEquals(
        List.of(
            "/sys/a: Invalid argument",
            "cannot create /sys/a: Device or resource busy",
            "cat: write error: Invalid argument",
            "write failed"),
        lines.subList(3, 7));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dash", "bash"})
  void exclusivePairsNameTheirPartner(String shell, @TempDir Path dir) {
    Result result =
        new AgentLibrary(shell, dir)
            .run(
                """
                for p; do
                  if pair_partner "$p"; then echo "$PAIR_PARTNER"; else echo none; fi
                done
                """,
                "/proc/sys/vm/dirty_bytes",
                "/proc/sys/vm/dirty_ratio",
                "/proc/sys/vm/dirty_background_bytes",
                "/proc/sys/vm/dirty_background_ratio",
                "/proc/sys/vm/overcommit_kbytes",
                "/proc/sys/vm/overcommit_ratio",
                "/proc/sys/vm/swappiness",
                "/sys/block/loop0/queue/dirty_bytes");

    assertEquals(
        List.of(
            "dirty_ratio",
            "dirty_bytes",
            "dirty_background_ratio",
            "dirty_background_bytes",
            "overcommit_ratio",
            "overcommit_kbytes",
            "none",
            "none"),
        result.lines());
  }
}
