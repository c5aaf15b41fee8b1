package io.tunelab.store.sql;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The SQL files packaged with tunelab under {@code io/tunelab/store/db/}: schema migrations and the
 * saved example queries ({@code queries/}).
 */
public final class BundledSql {
  public static final String ROOT = "io/tunelab/store/db/";

  private BundledSql() {}

  /** The names of the {@code .sql} files directly in {@code ROOT + dir}, sorted. */
  public static List<String> list(String dir) {
    String folder = ROOT + dir;
    SortedSet<String> names = new TreeSet<>();
    try {
      // A class loader answers for names, not folders: find every copy of the folder (class
      // folder or jar) and list it there.
      Enumeration<URL> copies = loader().getResources(folder);
      while (copies.hasMoreElements()) {
        names.addAll(namesAt(copies.nextElement(), folder));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + folder, e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot list " + folder, e);
    }
    return List.copyOf(names);
  }

  /** The text of one bundled file, e.g. {@code read("V1__init.sql")}. */
  public static String read(String name) {
    try (InputStream in = loader().getResourceAsStream(ROOT + name)) {
      if (in == null) {
        throw new IllegalStateException("missing bundled SQL file " + ROOT + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read bundled SQL file " + name, e);
    }
  }

  private static ClassLoader loader() {
    return BundledSql.class.getClassLoader();
  }

  private static List<String> namesAt(URL url, String folder)
      throws IOException, URISyntaxException {
    if (url.getProtocol().equals("file")) {
      try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
        return files.map(f -> f.getFileName().toString()).filter(BundledSql::isSql).toList();
      }
    }
    if (url.openConnection() instanceof JarURLConnection jar) {
      jar.setUseCaches(false);
      try (JarFile file = jar.getJarFile()) {
        return file.stream()
            .map(JarEntry::getName)
            .filter(n -> n.startsWith(folder) && n.indexOf('/', folder.length()) < 0)
            .map(n -> n.substring(folder.length()))
            .filter(BundledSql::isSql)
            .toList();
      }
    }
    return List.of();
  }

  private static boolean isSql(String name) {
    return name.endsWith(".sql");
  }
}
