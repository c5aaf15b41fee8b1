package io.tunelab.report;

import static io.tunelab.store.Fixtures.MIB;

import io.tunelab.plan.Cell;
import io.tunelab.store.MonitorSample;
import io.tunelab.store.ProcessRecord;
import io.tunelab.store.SettingRow;
import io.tunelab.store.TrialOutput;
import io.tunelab.store.TrialResult;
import io.tunelab.store.TrialStatus;
import io.tunelab.workload.Sample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One trial of {@link Studies#readerVsWriter}: what the runner hands the store for a writer job of
 * two dd processes, a reader job of one fio process, and vmstat and iostat on the client. Every
 * number follows from the cell and the repetition.
 */
final class ReaderVsWriter {
  private static final double WRITER_BYTES = 512 * MIB;
  private static final double READER_BYTES = 1024 * MIB;
  private static final String HOST = "cli1";

  private ReaderVsWriter() {}

  /** The cell's index: 0 mq-deadline/be/0, 1 mq-deadline/rt/0, 2 bfq/be/0, 3 bfq/rt/0. */
  private static int index(Cell cell) {
    return cell.ordinal() - 1;
  }

  static TrialResult trial(Cell cell, int rep) {
    int c = index(cell);
    String scheduler = cell.params().get(Studies.CLIENT_SCHEDULER);
    String readerClass = cell.params().get("reader_class");
    double[] writerNoise = {0, 1.0, 1.012, 0.994};
    double[] readerNoise = {0, 1.0, 0.985, 1.021};
    double w0 = new double[] {8.0, 8.1, 11.5, 15.8}[c] * writerNoise[rep];
    double w1 = w0 * 1.03;
    double r0 = new double[] {20.4, 20.1, 10.2, 6.1}[c] * readerNoise[rep];
    double wall = Math.max(w1, r0);

    List<Sample> samples = new ArrayList<>();
    dd(samples, "writer.0", w0, WRITER_BYTES);
    dd(samples, "writer.1", w1, WRITER_BYTES);
    dd(samples, "writer", w1, 2 * WRITER_BYTES);
    double fioSeconds = r0 - 0.05; // fio's own runtime, without its start-up
    double readMib = READER_BYTES / fioSeconds / MIB;
    double clatP99 = new double[] {61_800, 60_900, 21_400, 7_950}[c] * readerNoise[rep];
    double latMean = new double[] {38_100, 37_600, 12_050, 4_280}[c] * readerNoise[rep];
    for (String job : List.of("reader.0", "reader")) {
      samples.add(new Sample(job, "seconds", r0, "s"));
      samples.add(new Sample(job, "bytes", READER_BYTES, "B"));
      samples.add(new Sample(job, "mib_per_s", READER_BYTES / r0 / MIB, "MiB/s"));
      samples.add(new Sample(job, "iops", readMib * 16, "IO/s"));
      samples.add(new Sample(job, "read_mib_per_s", readMib, "MiB/s"));
      samples.add(new Sample(job, "read_iops", readMib * 16, "IO/s"));
      samples.add(new Sample(job, "read_lat_mean_us", latMean, "us"));
      samples.add(new Sample(job, "read_clat_p99_us", clatP99, "us"));
    }
    double allBytes = 2 * WRITER_BYTES + READER_BYTES;
    samples.add(new Sample("all", "seconds", wall, "s"));
    samples.add(new Sample("all", "bytes", allBytes, "B"));
    samples.add(new Sample("all", "mib_per_s", allBytes / wall / MIB, "MiB/s"));
    samples.add(new Sample("all", "iops", 2 * WRITER_BYTES / w1 / MIB + readMib * 16, "IO/s"));

    double spread = 1 + 0.01 * (rep - 2);
    Map<String, Double> vmstat = new LinkedHashMap<>();
    vmstat.put("us", new double[] {1.8, 1.9, 2.1, 2.4}[c] * spread);
    vmstat.put("sy", new double[] {9.5, 9.4, 11.2, 12.6}[c] * spread);
    vmstat.put("id", new double[] {52.0, 52.3, 44.3, 39.8}[c] / spread);
    vmstat.put("wa", new double[] {36.7, 36.4, 42.4, 45.2}[c] * spread);
    vmstat.put("bi", readMib * 1024);
    vmstat.put("bo", 2 * WRITER_BYTES / w1 / 1024);
    Map<String, Double> iostat = new LinkedHashMap<>();
    iostat.put("r_per_s", readMib * 16);
    iostat.put("w_per_s", 2 * WRITER_BYTES / w1 / MIB * 2);
    iostat.put("r_await", latMean / 1000);
    iostat.put("util_pct", 99.1 + 0.2 * c);
    List<MonitorSample> rows = new ArrayList<>();
    monitor(rows, samples, "vmstat", "", "vmstat@client", 1, wall, vmstat);
    monitor(rows, samples, "iostat", "sdb", "iostat@client:sdb", 2, wall, iostat);

    String readerIonice = readerClass.equals("rt/0") ? "realtime: prio 0" : "best-effort: prio 0";
    List<ProcessRecord> processes =
        List.of(
            new ProcessRecord(
                "writer",
                "writer.0",
                "client",
                HOST,
                "best-effort: prio 7",
                10,
                null,
                0,
                w0,
                false),
            new ProcessRecord(
                "writer",
                "writer.1",
                "client",
                HOST,
                "best-effort: prio 7",
                10,
                null,
                0,
                w1,
                false),
            new ProcessRecord(
                "reader", "reader.0", "client", HOST, readerIonice, 0, null, 0, r0, false));
    String fioJson =
        String.format(
            Locale.ROOT,
            "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [\n    {\n"
                + "      \"jobname\" : \"reader\",\n      \"job_runtime\" : %d,\n"
                + "      \"read\" : { \"io_bytes\" : %d, \"bw_bytes\" : %d, \"iops\" : %.6f },\n"
                + "      \"usr_cpu\" : 1.25, \"sys_cpu\" : 6.5\n    }\n  ]\n}\n",
            Math.round(fioSeconds * 1000),
            (long) READER_BYTES,
            Math.round(readMib * MIB),
            readMib * 16);
    SettingRow setting =
        new SettingRow(
            "client",
            HOST,
            "block.sdb.scheduler",
            "/sys/block/sdb/queue/scheduler",
            scheduler,
            scheduler,
            "mq-deadline",
            !scheduler.equals("mq-deadline"));
    return new TrialResult(
        TrialStatus.OK,
        null,
        wall,
        samples,
        List.of(setting),
        rows,
        processes,
        List.of(new TrialOutput("reader.0", "fio-json", fioJson)));
  }

  /** A dd process or job: its time, bytes, and the derived MiB/s and IOPS at bs=1M. */
  private static void dd(List<Sample> samples, String job, double seconds, double bytes) {
    double mibPerS = bytes / seconds / MIB;
    samples.add(new Sample(job, "seconds", seconds, "s"));
    samples.add(new Sample(job, "bytes", bytes, "B"));
    samples.add(new Sample(job, "mib_per_s", mibPerS, "MiB/s"));
    samples.add(new Sample(job, "iops", mibPerS, "IO/s"));
  }

  /**
   * A monitor's interval rows over the workload, every {@code interval} seconds, spread evenly
   * around the given means, and the means as samples of {@code job}.
   */
  private static void monitor(
      List<MonitorSample> rows,
      List<Sample> samples,
      String monitor,
      String device,
      String job,
      int interval,
      double wall,
      Map<String, Double> means) {
    int n = (int) Math.floor(wall / interval);
    for (int k = 0; k < n; k++) {
      double offset = (k - (n - 1) / 2.0) / n;
      for (Map.Entry<String, Double> m : means.entrySet()) {
        // A busy disk stays near 100 % busy.
        double spread = m.getKey().equals("util_pct") ? 0.005 : 0.1;
        rows.add(
            new MonitorSample(
                HOST,
                monitor,
                device,
                (k + 1) * interval,
                m.getKey(),
                m.getValue() * (1 + spread * offset)));
      }
    }
    for (Map.Entry<String, Double> m : means.entrySet()) {
      samples.add(new Sample(job, m.getKey(), m.getValue(), unit(m.getKey())));
    }
  }

  private static String unit(String metric) {
    return switch (metric) {
      case "us", "sy", "id", "wa", "util_pct" -> "%";
      case "bi", "bo" -> "blocks/s";
      case "r_per_s", "w_per_s" -> "IO/s";
      case "r_await" -> "ms";
      default -> null;
    };
  }
}
