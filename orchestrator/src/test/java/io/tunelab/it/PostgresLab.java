package io.tunelab.it;

import io.tunelab.testing.TestTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The PostgreSQL server of {@code lab/postgres} for a test class, as a static
 * {@code @RegisterExtension}: started if it was down (and stopped again after the class), with a
 * database of its own for each test.
 */
final class PostgresLab implements BeforeAllCallback, AfterAllCallback {
  private static final Path ENV = Path.of("/var/tmp/tunelab-postgres/env");
  private static final Path DATA = Path.of("/var/tmp/tunelab-postgres/data");
  private static final String PGPASS_PROPERTY = "org.postgresql.pgpassfile";

  private boolean started;
  private String url;
  private String pgpass;
  private int databases;

  /**
   * Brings the server up before the class's first test; pgjdbc then finds its password file through
   * a system property, the in-process CLI's stand-in for PGPASSFILE.
   */
  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    Lab.requireRoot();
    boolean wasUp = Files.exists(ENV) && status();
    LoopDisk.sh(Lab.root().resolve("lab/postgres") + " up");
    for (String line : Files.readAllLines(ENV)) {
      if (line.startsWith("TUNELAB_PG_URL=")) {
        url = line.substring("TUNELAB_PG_URL=".length());
      } else if (line.startsWith("PGPASSFILE=")) {
        pgpass = line.substring("PGPASSFILE=".length());
      }
    }
    System.setProperty(PGPASS_PROPERTY, pgpass);
    started = !wasUp;
  }

  /** Drops the class's databases, and stops the server when it started it. */
  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    if (url != null) {
      close();
    }
  }

  private static boolean status() {
    try {
      LoopDisk.sh(Lab.root().resolve("lab/postgres") + " status");
      return true;
    } catch (Exception e) {
      return false;
    }
  }

  /** The URL of a new, empty database, e.g. {@code postgresql://tunelab@127.0.0.1:55432/t_1}. */
  String freshDatabase() throws SQLException {
    String name = "t_" + ProcessHandle.current().pid() + "_" + ++databases;
    try (Connection c = connect("tunelab");
        Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + name);
      st.execute("CREATE DATABASE " + name);
    }
    return url.substring(0, url.lastIndexOf('/') + 1) + name;
  }

  /** A connection of the test's own to database {@code name}. */
  Connection connect(String name) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "tunelab");
    String base = url.substring("postgresql://tunelab@".length(), url.lastIndexOf('/') + 1);
    return DriverManager.getConnection("jdbc:postgresql://" + base + name, p);
  }

  /** The database name of a URL {@link #freshDatabase} gave. */
  static String name(String url) {
    return url.substring(url.lastIndexOf('/') + 1);
  }

  /** Stops the server, keeping its databases: a server away until {@link #start}. */
  void stop() throws Exception {
    LoopDisk.sh(Lab.root().resolve("lab/postgres") + " stop");
  }

  /** Starts the server {@link #stop} stopped; nothing when it runs. */
  void start() throws Exception {
    LoopDisk.sh(Lab.root().resolve("lab/postgres") + " up");
  }

  /** The server's TCP port. */
  int port() {
    String hostPort = url.substring(url.indexOf('@') + 1, url.lastIndexOf('/'));
    return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
  }

  /**
   * The server's processes: the postmaster (its pid from {@code postmaster.pid}) and its children,
   * for a test that hangs the server (SIGSTOP) and lets it go on.
   */
  List<Long> serverProcesses() throws Exception {
    long postmaster =
        Long.parseLong(Files.readAllLines(DATA.resolve("postmaster.pid")).get(0).trim());
    List<Long> pids = new ArrayList<>();
    pids.add(postmaster);
    ProcessHandle.of(postmaster)
        .orElseThrow(() -> new IllegalStateException("no postmaster " + postmaster))
        .children()
        .forEach(p -> pids.add(p.pid()));
    return pids;
  }

  /** The lab CA's certificate, which signed the server's (for 127.0.0.1 only). */
  Path caCertificate() {
    return ENV.resolveSibling("tls").resolve("ca.crt");
  }

  /** The password file the server's role is in. */
  String pgpass() {
    return pgpass;
  }

  /** The first row of {@code sql} on the database {@code url} names, each column as text. */
  List<String> row(String url, String sql) throws SQLException {
    try (Connection c = connect(name(url));
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      List<String> cols = new ArrayList<>();
      if (rs.next()) {
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          cols.add(rs.getString(i));
        }
      }
      return cols;
    }
  }

  /**
   * Waits until the first column of {@code sql}'s first row is at least {@code value}, within two
   * minutes (scaled by {@link TestTime}); fails naming the statement otherwise.
   */
  void awaitAtLeast(String url, String sql, long value) throws Exception {
    boolean reached =
        TestTime.poll(
            Duration.ofMinutes(2),
            Duration.ofMillis(50),
            () -> {
              try {
                return Long.parseLong(row(url, sql).get(0)) >= value;
              } catch (SQLException notYet) {
                return false; // the schema is not there yet
              }
            });
    if (!reached) {
      throw new AssertionError("never " + value + ": " + sql);
    }
  }

  /** A matrix in {@code dir}: {@code cells} values of a parameter, each {@code sleep seconds}. */
  static Path sleepMatrix(Path dir, String name, int cells, int repeat, String seconds)
      throws Exception {
    List<String> values = new ArrayList<>();
    for (int i = 1; i <= cells; i++) {
      values.add(Integer.toString(i));
    }
    Path m = dir.resolve(name + ".yaml");
    Files.writeString(
        m,
        "name: "
            + name
            + "\nmatrix:\n  n: ["
            + String.join(", ", values)
            + "]\nrepeat: "
            + repeat
            + "\nworkload:\n  command: sleep "
            + seconds
            + "\n");
    return m;
  }

  /** Drops the test databases, and stops the server if this lab started it. */
  private void close() throws Exception {
    try (Connection c = connect("tunelab");
        Statement st = c.createStatement()) {
      for (int i = 1; i <= databases; i++) {
        st.execute("DROP DATABASE IF EXISTS t_" + ProcessHandle.current().pid() + "_" + i);
      }
    } finally {
      System.clearProperty(PGPASS_PROPERTY);
      if (started) {
        LoopDisk.sh(Lab.root().resolve("lab/postgres") + " down");
      }
    }
  }
}
