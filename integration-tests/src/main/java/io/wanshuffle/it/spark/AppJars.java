package io.wanshuffle.it.spark;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The jars a test or the demo ships to executors with {@code spark.jars}: the plugin's shaded jar
 * (as a user passes it to {@code spark-submit --jars}) and the jar holding the job code, or this
 * project's jars from the class path ({@link #classPathJars(Path)}).
 */
public final class AppJars {
  /** System property with the plugin's shaded jar (set by the failsafe configuration). */
  public static final String PLUGIN_JAR_PROPERTY = "wanshuffle.it.pluginJar";

  private AppJars() {}

  /**
   * The plugin's shaded jar: system property {@value #PLUGIN_JAR_PROPERTY}, else {@code
   * plugin/target/wan-shuffle-spark-4.1_*.jar} (the primary line's; not {@code original-*}) under
   * the working directory or its parent.
   *
   * @return the jar path
   * @throws IllegalStateException if no jar is found (the message says how to build it)
   */
  public static Path pluginJar() {
    String prop = System.getProperty(PLUGIN_JAR_PROPERTY);
    if (prop != null && !prop.isBlank() && Files.isRegularFile(Path.of(prop))) {
      return Path.of(prop).toAbsolutePath();
    }
    for (Path base : List.of(Path.of("plugin", "target"), Path.of("..", "plugin", "target"))) {
      if (Files.isDirectory(base)) {
        try (Stream<Path> s = Files.list(base)) {
          var jar =
              s.filter(
                      p -> {
                        String n = p.getFileName().toString();
                        return n.startsWith("wan-shuffle-spark-4.1_")
                            && n.endsWith(".jar")
                            && !n.contains("sources")
                            && !n.contains("javadoc");
                      })
                  .findFirst();
          if (jar.isPresent()) {
            return jar.get().toAbsolutePath().normalize();
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    throw new IllegalStateException(
        "plugin jar not found (system property "
            + PLUGIN_JAR_PROPERTY
            + "="
            + prop
            + "); build it with 'mvn -pl plugin -am package -DskipTests'");
  }

  /**
   * The jar holding {@code cls}: its code source if that is a jar; if it is a class folder (an IDE
   * or {@code mvn test} run), a jar of that folder written to {@code workDir}.
   *
   * @param cls a class of the job code
   * @param workDir where to write a jar built from a class folder
   * @return a jar path
   * @throws IllegalStateException if the class has no file code source
   */
  public static Path jarOf(Class<?> cls, Path workDir) {
    Path src;
    try {
      src = Path.of(cls.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException | NullPointerException e) {
      throw new IllegalStateException("cannot locate the code source of " + cls.getName(), e);
    }
    if (Files.isRegularFile(src)) {
      return src;
    }
    return jarFolder(
        src, workDir.resolve("classes-" + Integer.toHexString(src.hashCode()) + ".jar"));
  }

  /**
   * This project's jars and class folders on this JVM's class path (system property {@code
   * java.class.path}), plus the TPC-H generator's jar (in the local Maven repository's {@code
   * io/trino/tpch/}, or {@code tpch-*.jar} in the distribution's {@code lib/}): what executors need
   * besides Spark when the job code runs from the class path (the testbed's drivers). Class folders
   * ({@code .../classes}, not {@code test-classes}) are jarred into {@code workDir} as {@code
   * app-<i>.jar}.
   *
   * @param workDir where to write jars built from class folders (created)
   * @return absolute jar paths, in class path order
   * @throws UncheckedIOException if a class folder cannot be jarred
   */
  public static List<String> classPathJars(Path workDir) {
    List<String> out = new ArrayList<>();
    int i = 0;
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      Path p = Path.of(entry);
      boolean ours =
          isProjectJar(p)
              || entry.contains("/tpch/")
              || p.getFileName().toString().startsWith("tpch-")
              || (Files.isDirectory(p)
                  && entry.endsWith("classes")
                  && !entry.endsWith("test-classes"));
      if (!ours || !Files.exists(p)) {
        continue;
      }
      if (Files.isDirectory(p)) {
        out.add(jarFolder(p, workDir.resolve("app-" + (i++) + ".jar")).toString());
      } else {
        out.add(p.toAbsolutePath().toString());
      }
    }
    return out;
  }

  /**
   * @param p a class path entry
   * @return true for a jar of this project's modules (installed under {@code io/wanshuffle/} or
   *     built in a module's {@code target/}): those go to executors with {@code spark.jars}, never
   *     into a Spark home
   */
  static boolean isProjectJar(Path p) {
    String name = p.getFileName().toString();
    return p.toString().contains("/io/wanshuffle/")
        || name.startsWith("wan-shuffle-")
        || name.startsWith("scheduler-core-");
  }

  private static Path jarFolder(Path dir, Path jar) {
    try {
      Files.createDirectories(jar.getParent());
      try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
          Stream<Path> files = Files.walk(dir)) {
        for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
          out.putNextEntry(new JarEntry(dir.relativize(f).toString().replace('\\', '/')));
          Files.copy(f, (OutputStream) out);
          out.closeEntry();
        }
      }
      return jar;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot jar " + dir, e);
    }
  }
}
