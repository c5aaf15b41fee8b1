package io.tunelab.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tunelab.testing.Cli;
import io.tunelab.testing.Integration;
import io.tunelab.testing.SqliteQuery;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each of the five study matrices of matrices/lab runs at a smaller scale through the lab's real
 * hosts, iSCSI target and NFS server, and its documented table command prints the study's table.
 */
@Integration
class LabStudiesTest {
  @RegisterExtension
  static final SshLabExtension LAB =
      new SshLabExtension(
          "tgtd", "tgtadm", "ganesha.nfsd", "rpcbind", "nfs-cp", "python3", "fio", "vmstat");

  @TempDir Path dir;

  /**
   * bfq where this kernel has it, else kyber: the lab's hosts share this machine's kernel, and a
   * kernel built without bfq refuses the studies' bfq cells in preflight, as it should.
   */
  private static final String SECOND = offers("bfq") ? "bfq" : "kyber";

  private static boolean offers(String scheduler) {
    try (DirectoryStream<Path> devices = Files.newDirectoryStream(Path.of("/sys/block"))) {
      for (Path d : devices) {
        Path line = d.resolve("queue/scheduler");
        if (Files.isReadable(line)) {
          // "none [mq-deadline] kyber": the one in use is in brackets.
          return List.of(Files.readString(line).replaceAll("[\\[\\]]", "").trim().split("\\s+"))
              .contains(scheduler);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return false;
  }

  /**
   * The study's lab matrix with each replacement applied; a replacement that no longer matches
   * fails the test, so the small run keeps following the real matrix.
   */
  private Path small(String study, String... replacements) throws Exception {
    String text = Files.readString(Lab.root().resolve("matrices/lab/" + study + ".yaml"));
    for (int i = 0; i < replacements.length; i += 2) {
      assertTrue(text.contains(replacements[i]), study + ".yaml no longer has: " + replacements[i]);
      text = text.replace(replacements[i], replacements[i + 1]);
    }
    Path m = dir.resolve(study + ".yaml");
    Files.writeString(m, text);
    return m;
  }

  private Cli.Result run(Path matrix, Path db) {
    Cli.Result r = runAny(matrix, db);
    assertEquals(0, r.code(), r.all());
    return r;
  }

  private static Cli.Result runAny(Path matrix, Path db) {
    return Cli.tunelab(
        "run",
        matrix.toString(),
        "--hosts",
        Lab.root().resolve("lab/hosts.yaml").toString(),
        "--db",
        db.toString());
  }

  private static String table(Path db, String... args) {
    String[] all = new String[args.length + 1];
    all[0] = args[0];
    all[1] = "--db=" + db;
    System.arraycopy(args, 1, all, 2, args.length - 1);
    Cli.Result r = Cli.tunelab(all);
    assertEquals(0, r.code(), r.all());
    return r.out();
  }

  private static void assertLine(String table, String regex) {
    assertTrue(
        table.lines().anyMatch(l -> l.matches(regex)),
        "no line matching " + regex + " in\n" + table);
  }

  @Test
  void iscsiReadAheadPrintsPerCaseBlockSizeTimesMeanStdAndIops() throws Exception {
    Path db = dir.resolve("iscsi.db");
    run(
        small(
            "iscsi-readahead",
            "threads: [1, 2, 5]",
            "threads: [1, 2]",
            "[mq-deadline, none]",
            "[mq-deadline]",
            "    server:ra=2M+max_sectors=64:\n"
                + "      server.block.${lun_disk}.read_ahead_kb: 2048\n"
                + "      server.block.${lun_disk}.max_sectors_kb: 64\n",
            "",
            "bs: [64M, 32M, 16M]",
            "bs: [64M, 16M]",
            "repeat: 3",
            "repeat: 2"),
        db);

    String report = table(db, "report");
    assertLine(report, "case: default");
    assertLine(report, "case: server:ra=2M");
    assertLine(report, "threads +scheduler +bs +t1 +t2 +MiB/s +std +IOPS");
    assertLine(report, " *2 +mq-deadline +16M( +\\d+\\.\\d{3}){5}");
    // the cells ran with 1 and 2 I/O threads; the teardown gave the target tgt's default back
    assertEquals(
        List.of(List.of("2")),
        SqliteQuery.rows(
            db, "select count(distinct value) from cell_params where name = 'threads'"));
    assertTrue(
        Files.readString(Lab.root().resolve("lab/state/env")).contains("ISCSI_IOTHREADS=16"),
        "lab env after the run");
  }

  @Test
  void nfsWritebackRunTwiceComparesBaseChangeNewWithTotal() throws Exception {
    Path db = dir.resolve("nfs.db");
    Path m =
        small(
            "nfs-writeback",
            "    nfs:thresh=100M+bg=10M:\n"
                + "      server.vm.dirty_bytes: 104857600\n"
                + "      server.vm.dirty_background_bytes: 10485760\n",
            "",
            "dd: [1, 2, 10]",
            "dd: [1, 10]",
            "duration: 3s",
            "duration: 1s",
            "repeat: 3",
            "repeat: 2");
    run(m, db);
    // the second run stands in for another kernel: the server's NFS disk in direct I/O mode,
    // as docs/studies.md does it
    String disk = "/dev/" + LAB.env().get("NFS_DISK");
    try {
      LoopDisk.sh("losetup --direct-io=on " + disk);
      run(m, db);
    } finally {
      LoopDisk.sh("losetup --direct-io=off " + disk);
    }

    String compare = table(db, "compare", "1", "2");
    assertLine(compare, " +base +%change +95% CI +new +verdict +p +n +label");
    assertLine(compare, ".*[+-]\\d+\\.\\d% .*case=nfs:thresh=10M/dd=10");
    assertLine(compare, " +\\d+\\.\\d{3} +[+-]\\d+\\.\\d% +\\[[^\\]]+\\] +\\d+\\.\\d{3} +4 +TOTAL");
    // every writer of every trial stored its own bytes and MiB/s
    assertEquals(
        List.of(List.of("88")),
        SqliteQuery.rows(
            db,
            "select count(*) from samples where job like 'cmd.%' and metric = 'mib_per_s'"
                + " and value > 0"));
  }

  /** The matrix with one case, two writers, one repetition and the given source size. */
  private Path oneCell(String source, String duration, String free) throws Exception {
    return small(
        "nfs-writeback",
        "head -c 8M",
        "head -c " + source,
        "    nfs:thresh=100M+bg=10M:\n"
            + "      server.vm.dirty_bytes: 104857600\n"
            + "      server.vm.dirty_background_bytes: 10485760\n"
            + "    nfs:thresh=1G+bg=100M:\n"
            + "      server.vm.dirty_bytes: 1073741824\n"
            + "      server.vm.dirty_background_bytes: 104857600\n",
        "",
        "dd: [1, 2, 10]",
        "dd: [2]",
        "duration: 3s",
        "duration: " + duration,
        "repeat: 3",
        "repeat: 1",
        "$NFS_CLEAN --free 6144",
        "$NFS_CLEAN --free " + free);
  }

  @Test
  void nfsWriterStoppedBeforeItsFirstCopyEndsStoresThatCopysBytes() throws Exception {
    // 256 MiB copies that no writer finishes in 300 ms
    Path db = dir.resolve("partial.db");
    run(oneCell("256M", "300ms", "6144"), db);
    assertEquals(
        List.of(List.of("cmd.0", "0.0"), List.of("cmd.1", "0.0")),
        SqliteQuery.rows(
            db,
            "select job, value from samples where metric = 'files' and job like 'cmd.%'"
                + " order by job"));
    assertEquals(
        List.of(List.of("2")),
        SqliteQuery.rows(
            db,
            "select count(*) from samples where job like 'cmd.%' and metric = 'bytes'"
                + " and value > 0 and value < 268435456"));
  }

  @Test
  void nfsTrialFailsBeforeItsWritersWhenTheExportHasNotRoomForThem() throws Exception {
    Cli.Result r = runAny(oneCell("8M", "300ms", "999999"), dir.resolve("full.db"));
    assertEquals(1, r.code(), r.all());
    assertTrue(
        r.all()
            .matches(
                "(?s).*FAILED: before_trial: .*nfs-clean: \\S+ has \\d+ MiB free once"
                    + " emptied, the trial wants 999999 MiB.*"),
        r.all());
  }

  @Test
  void fioEnginesPrintsMibPerSecondByEngineDepthAndProcesses() throws Exception {
    Path db = dir.resolve("fio.db");
    run(
        small(
            "fio-engines",
            "repeat: 2",
            "repeat: 1",
            "runtime: 2",
            "runtime: 1",
            "ioengine: [sync, psync, libaio, io_uring, posixaio]",
            "ioengine: [sync, psync, io_uring]",
            "processes: [1, 4]",
            "processes: [2]"),
        db);

    String report = table(db, "report", "--rows", "ioengine,iodepth", "--cols", "processes");
    assertLine(report, "ioengine +iodepth +processes=2");
    assertLine(report, "io_uring +32 +\\d+\\.\\d{3} ±(\\d+\\.\\d%|-)");
  }

  @Test
  void readerVsWriterPrintsEachJobsSecondsAndMibPerSecondPerIoniceClass() throws Exception {
    Path db = dir.resolve("rw.db");
    run(
        small(
            "reader-vs-writer",
            "repeat: 3",
            "repeat: 1",
            "[mq-deadline, bfq, none]",
            "[" + SECOND + "]",
            "total: 512MiB",
            "total: 64MiB",
            "total: 256MiB",
            "total: 32MiB"),
        db);

    String report = table(db, "report", "--job", "writer,reader");
    assertLine(report, " +-+ writer -+ +-+ reader -+");
    assertLine(report, "\\S+ +seconds +MiB/s +seconds +MiB/s");
    assertLine(report, "rt/0( +\\d+\\.\\d{3} ±(\\d+\\.\\d%|-)){4}");
    assertLine(report, "be/0( +\\d+\\.\\d{3} ±(\\d+\\.\\d%|-)){4}");
  }

  @Test
  void perDeviceDirectPrintsIopsWithVmstatCpu() throws Exception {
    Path db = dir.resolve("dev.db");
    run(
        small(
            "per-device-direct",
            "repeat: 3",
            "repeat: 1",
            "[none, mq-deadline, bfq]",
            "[none, " + SECOND + "]",
            "runtime: 4",
            "runtime: 2",
            "for i in 0 1 2 3;",
            "for i in 0 1;"),
        db);

    String report =
        table(db, "report", "--job", "all,vmstat@client", "--metric", "iops,us,sy,id,wa");
    assertLine(report, " +-+ all -+ +-+ vmstat@client -+");
    assertLine(report, "\\S+ +IOPS +us +sy +id +wa");
    assertLine(report, SECOND + "( +\\d+\\.\\d{3} ±(\\d+\\.\\d%|-)){5}");
    // one reader per disk, each with its own IOPS
    assertEquals(
        List.of(List.of("2")),
        SqliteQuery.rows(
            db,
            "select count(distinct job) from samples where job like '%.%' and job not like '%@%'"
                + " and metric = 'iops'"));
  }
}
