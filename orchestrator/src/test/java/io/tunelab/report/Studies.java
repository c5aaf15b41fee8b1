package io.tunelab.report;

import static io.tunelab.store.Fixtures.GIB;
import static io.tunelab.store.Fixtures.cell;
import static io.tunelab.store.Fixtures.dd;
import static io.tunelab.store.Fixtures.experiment;
import static io.tunelab.store.Fixtures.failed;

import io.tunelab.plan.Cell;
import io.tunelab.store.ExperimentStatus;
import io.tunelab.store.Fixtures;
import io.tunelab.store.TrialCommit;
import io.tunelab.store.TrialRef;
import io.tunelab.store.sqlite.JdbcResultStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Experiments for report and compare tests, written through the store API as the runner writes
 * them. Every number is fixed, so the outputs are golden.
 */
public final class Studies {
  /** The iSCSI server's scheduler, a knob axis with a placeholder. */
  public static final String SCHEDULER = "server.block.${dev}.scheduler";

  /** The NFS cases: values with {@code /}, {@code =} and {@code :} in them. */
  public static final List<String> NFS_CASES =
      List.of("nfs:thresh=10M", "nfs:thresh=100M/bg=10M", "nfs:thresh=1G/bg=100M");

  private Studies() {}

  /**
   * The iSCSI read-ahead study, interrupted: cases {@code default} and {@code
   * client:ra=2M/server:ra=2M} x bs 64M, 32M, 16M, 3 repetitions after a warm-up; one trial failed
   * and the last two never ran. Case default, bs=64M has the design example's three reads.
   */
  public static long iscsi(JdbcResultStore store) {
    List<Cell> cells = new ArrayList<>();
    int ordinal = 1;
    for (String kase : List.of("default", "client:ra=2M/server:ra=2M")) {
      for (String bs : List.of("64M", "32M", "16M")) {
        cells.add(cell(ordinal++, SCHEDULER, "mq-deadline", "case", kase, "bs", bs));
      }
    }
    long id =
        store.createExperiment(experiment("iscsi-readahead", 3, 1, cells), Fixtures.TOOL_VERSION);
    store.recordHost(id, "server", "srv1", Map.of("kernel_release", "6.6.13"));
    store.recordHost(id, "client", "cli1", Map.of("kernel_release", "6.1.0-18-amd64"));
    store.setExperimentStatus(id, ExperimentStatus.RUNNING);
    double[][] seconds = {
      {16.067, 16.883, 16.096}, {16.211, 16.502, 16.398}, {17.012, 16.874, 17.354},
      {9.213, 9.101, 9.344}, {9.556, 9.489, 9.601}, {10.02, 9.984, 10.113}
    };
    for (TrialRef t : store.unfinishedTrials(id)) {
      int cell = t.cellOrdinal() - 1;
      double bsMiB = Integer.parseInt(cells.get(cell).params().get("bs").replace("M", ""));
      if (t.cellOrdinal() == 6 && t.rep() >= 2) {
        break; // interrupted: the last two repetitions never ran
      }
      store.startTrial(t.trialId());
      if (t.cellOrdinal() == 5 && t.rep() == 2) {
        store.commitTrial(
            TrialCommit.of(
                t.trialId(), failed("dd: error reading '/dev/sdb': Input/output error\nmore")));
      } else if (t.warmup()) {
        store.commitTrial(TrialCommit.of(t.trialId(), dd(30.5, GIB, bsMiB)));
      } else {
        store.commitTrial(TrialCommit.of(t.trialId(), dd(seconds[cell][t.rep() - 1], GIB, bsMiB)));
      }
    }
    store.setExperimentStatus(id, ExperimentStatus.INTERRUPTED);
    return id;
  }

  /**
   * The NFS writeback study on two kernels: cases {@link #NFS_CASES} x 1, 2, 10 concurrent dd
   * writers of 1 GiB each at bs=1M, 3 repetitions. Returns the base (6.1.0) and new (6.6.0) ids.
   *
   * <p>Per cell of the new kernel: thresh=10M gets 79.2 % faster with 1 dd, stays the same with 2,
   * regresses 5.7 % with 10; thresh=100M gains 0.5 % (below the noise threshold) with 1 dd, 3.1 %
   * drowned in noise with 2, and loses a trial with 10; thresh=1G with 1 dd exists only in the
   * base, with 20 dd only in the new run; with 2 dd it gains 11.1 %; with 10 dd the base has an
   * outlier.
   */
  public static long[] nfs(JdbcResultStore store) {
    long base = nfsRun(store, "6.1.0", false);
    long next = nfsRun(store, "6.6.0", true);
    return new long[] {base, next};
  }

  private static long nfsRun(JdbcResultStore store, String kernel, boolean isNew) {
    List<Cell> cells = new ArrayList<>();
    List<double[]> shapes = new ArrayList<>();
    int ordinal = 1;
    for (int c = 0; c < NFS_CASES.size(); c++) {
      List<String> writers = c == 2 && isNew ? List.of("2", "10", "20") : List.of("1", "2", "10");
      for (String dd : writers) {
        cells.add(cell(ordinal++, knobs(c), "case", NFS_CASES.get(c), "dd", dd));
        shapes.add(shape(c, Integer.parseInt(dd), isNew));
      }
    }
    long id =
        store.createExperiment(experiment("nfs-writeback", 3, 0, cells), Fixtures.TOOL_VERSION);
    store.recordHost(id, "client", "nfs-client", Map.of("kernel_release", kernel));
    store.setExperimentStatus(id, ExperimentStatus.RUNNING);
    for (TrialRef t : store.unfinishedTrials(id)) {
      double[] s = shapes.get(t.cellOrdinal() - 1);
      store.startTrial(t.trialId());
      String label = cells.get(t.cellOrdinal() - 1).label();
      if (isNew && label.equals("case=nfs:thresh=100M/bg=10M/dd=10") && t.rep() == 2) {
        store.commitTrial(
            TrialCommit.of(
                t.trialId(), failed("dd: error writing '/mnt/nfs/f1': No space left on device")));
        continue;
      }
      store.commitTrial(TrialCommit.of(t.trialId(), dd(s[t.rep()], GIB, 1)));
    }
    store.setExperimentStatus(id, ExperimentStatus.FINISHED);
    return id;
  }

  /** The server's kernel, an axis like a knob. */
  public static final String SERVER_KERNEL = "server.kernel";

  /** The two kernels of {@link #kernels}. */
  public static final List<String> KERNELS = List.of("6.1.0-47-amd64", "6.1.0-50-amd64");

  /**
   * The server's kernel as an axis: {@link #KERNELS} x bs 64M, 16M, 4M, 4 repetitions of a 1 GiB
   * read, each kernel booted twice (repetitions 1-2 on the first boot, 3-4 on the second), with
   * what each host ran recorded per trial in {@code trial_hosts} ({@code db} is the store's file).
   * The newer kernel boots with {@code mitigations=off} and reads faster, but its second boot is
   * slower than its first; every read at bs=4M fails on it. The client never reboots.
   */
  public static long kernels(JdbcResultStore store, Path db) throws SQLException {
    List<Cell> cells = new ArrayList<>();
    int ordinal = 1;
    for (String kernel : KERNELS) {
      for (String bs : List.of("64M", "16M", "4M")) {
        cells.add(cell(ordinal++, SERVER_KERNEL, kernel, "bs", bs));
      }
    }
    long id = store.createExperiment(experiment("kernel-axis", 4, 0, cells), Fixtures.TOOL_VERSION);
    store.recordHost(id, "server", "srv1", Map.of("kernel_release", KERNELS.get(0)));
    store.recordHost(id, "client", "cli1", Map.of("kernel_release", "6.1.0-18-amd64"));
    store.setExperimentStatus(id, ExperimentStatus.RUNNING);
    double[][] seconds = {
      {16.1, 16.3, 16.2, 16.4}, {16.9, 17.0, 17.2, 17.1}, {18.0, 18.2, 18.1, 18.3},
      {14.0, 14.1, 14.9, 15.0}, {14.6, 14.5, 15.4, 15.5}, {0, 0, 0, 0}
    };
    List<Object[]> hosts = new ArrayList<>();
    for (TrialRef t : store.unfinishedTrials(id)) {
      int cell = t.cellOrdinal() - 1;
      Cell c = cells.get(cell);
      String kernel = c.params().get(SERVER_KERNEL);
      double bsMiB = Integer.parseInt(c.params().get("bs").replace("M", ""));
      store.startTrial(t.trialId());
      if (kernel.equals(KERNELS.get(1)) && bsMiB == 4) {
        store.commitTrial(
            TrialCommit.of(t.trialId(), failed("dd: error reading '/dev/sdb': Invalid argument")));
      } else {
        store.commitTrial(TrialCommit.of(t.trialId(), dd(seconds[cell][t.rep() - 1], GIB, bsMiB)));
      }
      String cmdline =
          "BOOT_IMAGE=/boot/vmlinuz-"
              + kernel
              + " root=/dev/vda1 ro quiet"
              + (kernel.equals(KERNELS.get(1)) ? " mitigations=off" : "");
      String boot = "srv1-" + kernel.substring(6, 8) + (t.rep() <= 2 ? "a" : "b");
      hosts.add(new Object[] {t.trialId(), "srv1", kernel, boot, cmdline});
      hosts.add(
          new Object[] {
            t.trialId(),
            "cli1",
            "6.1.0-18-amd64",
            "cli1-boot",
            "BOOT_IMAGE=/boot/vmlinuz-6.1.0-18-amd64 root=/dev/sda1 ro"
          });
    }
    store.setExperimentStatus(id, ExperimentStatus.FINISHED);
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO trial_hosts (trial_id, host, kernel_release, boot_id, cmdline)"
                    + " VALUES (?, ?, ?, ?, ?)")) {
      for (Object[] row : hosts) {
        for (int i = 0; i < row.length; i++) {
          ps.setObject(i + 1, row[i]);
        }
        ps.executeUpdate();
      }
    }
    return id;
  }

  /** The client's scheduler in the reader-vs-writer study, a knob axis with a placeholder. */
  public static final String CLIENT_SCHEDULER = "client.block.${dev}.scheduler";

  /**
   * Study 4, reader vs writer, as the runner stores a workload of two jobs with monitors: client's
   * scheduler {@code mq-deadline} or {@code bfq} x the reader's ionice class {@code be/0} or {@code
   * rt/0}, 3 repetitions. Job {@code writer}: two dd processes ({@code ionice be/7}, nice 10)
   * writing 512 MiB each at bs=1M; job {@code reader}: one fio process reading 1 GiB at bs=64k.
   * Samples for {@code all}, each job and each process; vmstat (1 s) and iostat of sdb (2 s) means
   * as jobs {@code vmstat@client} and {@code iostat@client:sdb}, with every interval row in
   * monitor_samples; each process's record with the ionice class it really had, and the reader's
   * fio JSON. With mq-deadline the class changes nothing and the reader starves; bfq honours it.
   */
  public static long readerVsWriter(JdbcResultStore store) {
    List<Cell> cells = new ArrayList<>();
    int ordinal = 1;
    for (String scheduler : List.of("mq-deadline", "bfq")) {
      for (String kind : List.of("be/0", "rt/0")) {
        cells.add(
            cell(
                ordinal++,
                Map.of(CLIENT_SCHEDULER, scheduler),
                CLIENT_SCHEDULER,
                scheduler,
                "reader_class",
                kind));
      }
    }
    long id =
        store.createExperiment(experiment("reader-vs-writer", 3, 0, cells), Fixtures.TOOL_VERSION);
    store.recordHost(id, "client", "cli1", Map.of("kernel_release", "6.1.0-18-amd64"));
    store.setExperimentStatus(id, ExperimentStatus.RUNNING);
    for (TrialRef t : store.unfinishedTrials(id)) {
      store.startTrial(t.trialId());
      store.commitTrial(
          TrialCommit.of(
              t.trialId(), ReaderVsWriter.trial(cells.get(t.cellOrdinal() - 1), t.rep())));
    }
    store.setExperimentStatus(id, ExperimentStatus.FINISHED);
    return id;
  }

  /** The knobs of an NFS case: the dirty threshold, and the background one when given. */
  private static Map<String, String> knobs(int kase) {
    // In a fixed order: the store keeps the knobs' order, and exports show it.
    Map<String, String> knobs = new LinkedHashMap<>();
    knobs.put("client.vm.dirty_bytes", List.of("10485760", "104857600", "1073741824").get(kase));
    if (kase > 0) {
      knobs.put("client.vm.dirty_background_bytes", kase == 1 ? "10485760" : "104857600");
    }
    return knobs;
  }

  /** Seconds per repetition (index 1..3) of one cell. */
  private static double[] shape(int kase, int writers, boolean isNew) {
    double seconds = 10 + 2 * kase + writers * 0.5;
    double factor = 1;
    double[] noise = {0, 1.004, 0.998, 0.998};
    if (kase == 0 && writers == 1) {
      factor = isNew ? 0.558 : 1;
    } else if (kase == 0 && writers == 2) {
      factor = isNew ? 1.002 : 1;
    } else if (kase == 0 && writers == 10) {
      factor = isNew ? 1.06 : 1;
    } else if (kase == 1 && writers == 1) {
      factor = isNew ? 0.995 : 1;
    } else if (kase == 1 && writers == 2) {
      factor = isNew ? 0.97 : 1;
      noise = isNew ? new double[] {0, 1.08, 0.95, 0.97} : noise;
    } else if (kase == 2 && writers == 2) {
      factor = isNew ? 0.9 : 1;
    } else if (kase == 2 && writers == 10 && !isNew) {
      noise = new double[] {0, 1.0, 1.001, 1.15};
    }
    double[] out = new double[4];
    for (int r = 1; r <= 3; r++) {
      out[r] = seconds * factor * noise[r];
    }
    return out;
  }
}
