package io.tunelab.store.postgres;

import io.tunelab.TunelabException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * A {@code postgresql://USER@HOST:PORT/DATABASE[?sslmode=MODE&sslrootcert=FILE]} URL as libpq reads
 * it, without its password: the password comes from {@code PGPASSWORD}, else from {@code
 * PGPASSFILE} or {@code ~/.pgpass} (pgjdbc reads those files itself), never from the URL, so it is
 * in no log and no database. TLS is the URL's {@code sslmode} and {@code sslrootcert}, else {@code
 * PGSSLMODE} and {@code PGSSLROOTCERT}, else libpq's default ({@code prefer}).
 *
 * @param sslMode null for the default
 * @param sslRootCert the CA certificates a {@code verify-ca} or {@code verify-full} server is
 *     checked against; null for libpq's {@code ~/.postgresql/root.crt}
 */
public record PostgresUrl(
    String user, String host, int port, String database, String sslMode, String sslRootCert) {
  private static final int DEFAULT_PORT = 5432;

  private static final Set<String> SSL_MODES =
      Set.of("disable", "allow", "prefer", "require", "verify-ca", "verify-full");

  /** A URL with libpq's default TLS. */
  public PostgresUrl(String user, String host, int port, String database) {
    this(user, host, port, database, null, null);
  }

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
      throw bad(text, "it is not a URL (" + e.getReason().replace(text, redacted(text)) + ")");
    }
    String info = uri.getRawUserInfo();
    if (info != null && info.contains(":")) {
      throw bad(
          text,
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
    Map<String, String> options = options(text, uri.getRawQuery());
    String mode = options.getOrDefault("sslmode", blankToNull(env.get("PGSSLMODE")));
    if (mode != null && !SSL_MODES.contains(mode)) {
      throw bad(
          text,
          "sslmode "
              + mode
              + (options.containsKey("sslmode") ? "" : " (PGSSLMODE)")
              + " is not one of "
              + String.join(", ", new TreeSet<>(SSL_MODES)));
    }
    String rootCert = options.getOrDefault("sslrootcert", blankToNull(env.get("PGSSLROOTCERT")));
    String user = info != null ? info : env.getOrDefault("PGUSER", System.getProperty("user.name"));
    return new PostgresUrl(
        user,
        uri.getHost(),
        uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort(),
        path,
        mode,
        rootCert);
  }

  /** The URL's {@code ?name=value&…}: {@code sslmode} and {@code sslrootcert} only. */
  private static Map<String, String> options(String text, String query) {
    Map<String, String> options = new LinkedHashMap<>();
    if (query == null || query.isEmpty()) {
      return options;
    }
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      String name = eq < 0 ? pair : pair.substring(0, eq);
      if (!name.equals("sslmode") && !name.equals("sslrootcert")) {
        throw bad(
            text,
            "tunelab takes ?sslmode= and ?sslrootcert= in the URL, not ?"
                + name
                + "; PG* variables set the rest");
      }
      String value =
          eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      if (value.isEmpty()) {
        throw bad(text, "?" + name + "= has no value");
      }
      options.put(name, value);
    }
    return options;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }

  /**
   * {@code text} with whatever stands between the user and the host replaced by {@code …}: a URL
   * that holds a password is never printed whole, even when it does not parse.
   */
  static String redacted(String text) {
    int start = text.indexOf("://");
    int at = text.lastIndexOf('@');
    if (start < 0 || at < start) {
      return text;
    }
    String info = text.substring(start + 3, at);
    int colon = info.indexOf(':');
    return colon < 0
        ? text
        : text.substring(0, start + 3) + info.substring(0, colon) + ":…" + text.substring(at);
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
    if (sslMode != null) {
      p.setProperty("sslmode", sslMode);
    }
    if (sslRootCert != null) {
      p.setProperty("sslrootcert", sslRootCert);
    }
    return p;
  }

  private String hostForUrl() {
    return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
  }

  /** The URL, with its TLS options, as messages name it (no password is ever part of it). */
  @Override
  public String toString() {
    String base = "postgresql://" + user + "@" + hostForUrl() + ":" + port + "/" + database;
    List<String> options = new ArrayList<>();
    if (sslMode != null) {
      options.add("sslmode=" + sslMode);
    }
    if (sslRootCert != null) {
      options.add("sslrootcert=" + sslRootCert);
    }
    return options.isEmpty() ? base : base + "?" + String.join("&", options);
  }

  private static TunelabException bad(String text, String why) {
    return new TunelabException(
        TunelabException.BAD_INPUT, "cannot use database " + redacted(text) + ": " + why);
  }
}
