package io.tunelab.store.sqlite;

import io.tunelab.Timestamps;
import io.tunelab.store.Boot;
import io.tunelab.store.TrialHost;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Reads and writes {@code boots}, and writes {@code trial_hosts} inside a trial's commit. */
final class SqliteBoots {
  private final Transactions tx;
  private final Timestamps time;

  SqliteBoots(Transactions tx, Timestamps time) {
    this.tx = tx;
    this.time = time;
  }

  /** See {@link io.tunelab.store.RunStore#startBoot}. */
  long start(
      long experimentId,
      String host,
      String release,
      String method,
      Boot.Reason reason,
      int round,
      String bootIdBefore) {
    String now = time.now();
    boolean start = reason == Boot.Reason.START;
    String key = Keys.fresh();
    return tx.transaction(
        "record a boot of host " + host,
        c -> {
          SqliteStatements.update(
              c,
              "INSERT INTO boots (experiment_id, host, release, method, reason, round, state,"
                  + " boot_id_before, boot_id_after, started_at, finished_at, idem)"
                  + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idem) DO NOTHING",
              experimentId,
              host,
              release,
              method,
              reason.text(),
              round,
              (start ? Boot.State.UP : Boot.State.BOOTING).text(),
              bootIdBefore,
              start ? bootIdBefore : null,
              now,
              start ? now : null,
              key);
          return SqliteStatements.queryLong(c, "SELECT id FROM boots WHERE idem = ?", key);
        });
  }

  /** See {@link io.tunelab.store.RunStore#finishBoot}. */
  void finish(long bootId, Boot.State state, String bootIdAfter, String error) {
    String now = time.now();
    tx.transaction(
        "record how boot " + bootId + " ended",
        c ->
            SqliteStatements.update(
                c,
                "UPDATE boots SET state = ?, boot_id_after = ?, finished_at = ?, error = ?"
                    + " WHERE id = ?",
                state.text(),
                bootIdAfter,
                now,
                error,
                bootId));
  }

  /** See {@link io.tunelab.store.RunStore#boots}. */
  List<Boot> all(long experimentId) {
    return tx.transaction(
        "read the boots of experiment " + experimentId,
        c -> {
          List<Boot> boots = new ArrayList<>();
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT id, host, release, method, reason, round, state, boot_id_before,"
                      + " boot_id_after, started_at, finished_at, error FROM boots"
                      + " WHERE experiment_id = ? ORDER BY id")) {
            ps.setLong(1, experimentId);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                boots.add(
                    new Boot(
                        rs.getLong(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        Boot.Reason.of(rs.getString(5)),
                        rs.getInt(6),
                        Boot.State.valueOf(rs.getString(7).toUpperCase(java.util.Locale.ROOT)),
                        rs.getString(8),
                        rs.getString(9),
                        instant(rs.getString(10)),
                        instant(rs.getString(11)),
                        rs.getString(12)));
              }
            }
          }
          return boots;
        });
  }

  private static Instant instant(String text) {
    return text == null ? null : Instant.parse(text);
  }

  /** Inserts what each host ran during trial {@code trialId}, in the caller's transaction. */
  static void insertTrialHosts(Connection c, long trialId, List<TrialHost> hosts)
      throws SQLException {
    for (TrialHost h : hosts) {
      SqliteStatements.update(
          c,
          "INSERT INTO trial_hosts (trial_id, host, kernel_release, boot_id, cmdline)"
              + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (trial_id, host) DO UPDATE SET"
              + " kernel_release = excluded.kernel_release, boot_id = excluded.boot_id,"
              + " cmdline = excluded.cmdline",
          trialId,
          h.host(),
          h.kernelRelease(),
          h.bootId(),
          h.cmdline());
    }
  }
}
