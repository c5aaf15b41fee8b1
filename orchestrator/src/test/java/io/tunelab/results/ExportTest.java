package io.tunelab.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tunelab.report.ExportFormat;
import io.tunelab.report.SampleWriter;
import io.tunelab.report.Studies;
import io.tunelab.store.Fixtures;
import io.tunelab.store.ResultReader;
import io.tunelab.store.SampleRow;
import io.tunelab.store.SampleSink;
import io.tunelab.store.sqlite.JdbcResultStore;
import io.tunelab.testing.Cli;
import io.tunelab.testing.GoldenFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tunelab export}: long format, every parameter and knob, three formats, streamed. */
class ExportTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  static String db;
  static long nfs;
  static long iscsi;

  @BeforeAll
  static void buildDatabase() {
    db = dir.resolve("study.db").toString();
    try (JdbcResultStore store = JdbcResultStore.open(Path.of(db), Fixtures.CLOCK)) {
      nfs = Studies.nfs(store)[1];
      iscsi = Studies.iscsi(store);
    }
  }

  private static String export(String... args) {
    List<String> all = new ArrayList<>(List.of("export", "--db", db));
    all.addAll(List.of(args));
    Cli.Result r = Cli.tunelab(all.toArray(String[]::new));
    assertEquals(0, r.code(), r.all());
    return r.out();
  }

  @Test
  void csvHasOneRowPerSampleWithEveryParameterAndKnob() throws Exception {
    String csv = export(String.valueOf(nfs));
    List<String> lines = csv.lines().toList();

    assertEquals(
        "experiment_id,experiment,cell_id,ordinal,label,trial_id,rep,seq,warmup,status,started_at,"
            + "job,metric,value,unit,param:case,param:dd,knob:client.vm.dirty_bytes,"
            + "knob:client.vm.dirty_background_bytes",
        lines.get(0));
    // 27 trials, one failed without samples: 26 x (dd.0 + all) x 4 metrics.
    assertEquals(1 + 26 * 8, lines.size());
    assertEquals(
        "2,nfs-writeback,10,1,case=nfs:thresh=10M/dd=1,28,1,1,0,ok,2024-05-01T12:00:00.000Z,"
            + "all,bytes,1073741824,B,nfs:thresh=10M,1,10485760,",
        lines.get(1));
    assertTrue(
        csv.contains(",case=nfs:thresh=100M/bg=10M/dd=2,"), "labels with / = : stay one field");
    GoldenFiles.assertMatches("export/" + "nfs-new.csv", csv);
  }

  @Test
  void jsonIsOneArrayWithAnObjectPerLine() throws Exception {
    String text = export(String.valueOf(nfs), "--format", "json");
    JsonNode all = JSON.readTree(text);

    assertTrue(all.isArray());
    assertEquals(26 * 8, all.size());
    JsonNode first = all.get(0);
    assertEquals("bytes", first.get("metric").asText());
    assertEquals(1073741824.0, first.get("value").asDouble());
    assertEquals("nfs:thresh=10M", first.get("param:case").asText());
    assertTrue(first.get("knob:client.vm.dirty_background_bytes").isNull());
    assertEquals(0, first.get("warmup").asInt());
    assertEquals(2 + 26 * 8, text.lines().count(), "[, one line per sample, ]");
  }

  @Test
  void jsonLinesAreOneObjectPerLineAndNothingElse() throws Exception {
    String text = export(String.valueOf(nfs), "--format", "jsonl");
    List<String> lines = text.lines().toList();

    assertEquals(26 * 8, lines.size());
    for (String line : lines) {
      assertTrue(JSON.readTree(line).isObject(), line);
    }
    assertEquals(
        JSON.readTree(export(String.valueOf(nfs), "--format", "json")).get(5),
        JSON.readTree(lines.get(5)));
  }

  @Test
  void warmUpsAndFailuresAreExportedForTheUserToFilter() throws Exception {
    Path file = dir.resolve("iscsi.csv");
    Cli.Result r =
        Cli.tunelab("export", String.valueOf(iscsi), "--db", db, "--output", file.toString());

    assertEquals(1, r.code(), "unfinished: " + r.err());
    assertEquals("", r.out());
    List<String> lines = Files.readAllLines(file);
    assertTrue(
        lines.stream().anyMatch(l -> l.contains(",0,") && l.contains(",1,ok,")), "a warm-up row");
    assertTrue(lines.get(0).endsWith(",param:server.block.${dev}.scheduler,param:case,param:bs"));
    // 6 warm-ups and 15 measured trials ok: 21 x 8 samples.
    assertEquals(1 + 21 * 8, lines.size());
  }

  @Test
  void samplesArriveOneByOneInCellRepetitionJobMetricOrder() {
    List<String> seen = new ArrayList<>();
    try (ResultReader store = JdbcResultStore.openReadOnly(Path.of(db))) {
      long count =
          store.exportSamples(
              nfs,
              new SampleSink() {
                @Override
                public void columns(List<String> params, List<String> knobs) {
                  assertEquals(List.of("case", "dd"), params);
                  seen.add("columns");
                }

                @Override
                public void sample(SampleRow row) {
                  if (seen.size() < 10) {
                    seen.add(
                        row.trial().ordinal()
                            + "/"
                            + row.trial().rep()
                            + "/"
                            + row.job()
                            + "/"
                            + row.metric());
                  }
                }

                @Override
                public void end() {
                  seen.add("end");
                }
              });
      assertEquals(26 * 8, count);
    }
    assertEquals(
        List.of(
            "columns",
            "1/1/all/bytes",
            "1/1/all/iops",
            "1/1/all/mib_per_s",
            "1/1/all/seconds",
            "1/1/dd.0/bytes",
            "1/1/dd.0/iops",
            "1/1/dd.0/mib_per_s",
            "1/1/dd.0/seconds",
            "1/2/all/bytes",
            "end"),
        seen);
  }

  @Test
  void anEmptyExportIsStillWellFormed() {
    StringBuilder out = new StringBuilder();
    SampleWriter w = new SampleWriter(out, ExportFormat.JSON);
    w.columns(List.of("bs"), List.of());
    w.end();

    assertEquals("[]\n", out.toString());
  }
}
