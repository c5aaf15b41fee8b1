package io.tunelab.store.postgres;

import io.tunelab.TunelabException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;
import java.util.Properties;

/**
 * A {@code postgresql://USER@HOST:PORT/DATABASE} URL as libpq reads it, without its password: the
 * password comes from {@code PGPASSWORD}, else from {@code PGPASSFILE} or {@code ~/.pgpass} (pgjdbc
 * reads those files itself), never from the URL, so it is in no log and no database.
 */
public record PostgresUrl(String user, String host, int port, String database) {
  private static final int DEFAULT_PORT = 5432;

  /** Whether {@code text} names a PostgreSQL database rather than an SQLite file. */
  public static boolean isUrl(String text) {
    return text.startsWith("postgresql://") || text.startsWith("postgres://");
  }

  /**
   * Reads {@code text}; a user missing there is {@code PGUSER}, else the login name, as for libpq.
   * A malformed URL or one holding a password fails with exit code 2.
   */
  public static PostgresUrl parse(String text, Map<String, String> env) {
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw bad(text, "it is not a URL (" + e.getReason() + ")");
    }
    String info = uri.getRawUserInfo();
    if (info != null && info.contains(":")) {
      throw bad(
          text.replace(info, info.substring(0, info.indexOf(':')) + ":…"),
          "a password in the URL would be printed and stored: give it in ~/.pgpass, PGPASSFILE"
              + " or PGPASSWORD");
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      throw bad(text, "it names no host: write postgresql://USER@HOST:PORT/DATABASE");
    }
    String path = uri.getPath() == null ? "" : uri.getPath().replaceFirst("^/", "");
    if (path.isEmpty() || path.contains("/")) {
      throw bad(text, "it names no database: write postgresql://USER@HOST:PORT/DATABASE");
    }
    if (uri.getQuery() != null) {
      throw bad(text, "tunelab takes no ?options in the URL; PG* variables set the rest");
    }
    String user = info != null ? info : env.getOrDefault("PGUSER", System.getProperty("user.name"));
    return new PostgresUrl(
        user, uri.getHost(), uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort(), path);
  }

  /** The URL pgjdbc opens. */
  public String jdbcUrl() {
    return "jdbc:postgresql://" + hostForUrl() + ":" + port + "/" + database;
  }

  /** The connection's properties: user, the password from {@code PGPASSWORD} if set, timeouts. */
  public Properties properties(Map<String, String> env) {
    Properties p = new Properties();
    p.setProperty("user", user);
    String password = env.get("PGPASSWORD");
    if (password != null) {
      p.setProperty("password", password);
    }
    p.setProperty("ApplicationName", "tunelab");
    p.setProperty("connectTimeout", "10");
    // A server that accepts the connection but never answers the startup (a stopped postmaster).
    p.setProperty("loginTimeout", "10");
    // A dead server is noticed by the socket, not after the kernel's two-hour keepalive.
    p.setProperty("tcpKeepAlive", "true");
    return p;
  }

  private String hostForUrl() {
    return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
  }

  @Override
  public String toString() {
    return "postgresql://" + user + "@" + hostForUrl() + ":" + port + "/" + database;
  }

  private static TunelabException bad(String text, String why) {
    return new TunelabException(
        TunelabException.BAD_INPUT, "cannot use database " + text + ": " + why);
  }
}
