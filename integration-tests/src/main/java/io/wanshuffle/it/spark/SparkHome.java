package io.wanshuffle.it.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.launcher.JavaModuleOptions;

/**
 * A Spark home made of Maven jars: a folder whose {@code jars/} holds the runtime jars of
 * spark-core and spark-sql (no Spark distribution needed); 4.1.3 unless built for another line by
 * {@link SparkLines#home}. Two sources for 4.1.3: the integration-tests build fills {@code
 * integration-tests/target/spark-home/jars} with {@code maven-dependency-plugin:copy-dependencies}
 * (phase {@code generate-resources}; used by the loopback ITs, {@link #locate()}), and {@link
 * #linkClassPath(Path)} links the jars this JVM runs with (used by the experiments, which run from
 * any working folder).
 *
 * <p>A Worker needs {@code SPARK_SCALA_VERSION} (the home's Scala, {@link #scalaVersion()}) in its
 * environment (Spark's launcher command builder asks for it unconditionally), and every JVM started
 * by hand needs Spark's {@code --add-opens} list ({@link JavaModuleOptions}); {@link SparkJvms}
 * gives both.
 */
public final class SparkHome {
  /** System property naming the Spark home folder (set by the failsafe configuration). */
  public static final String PROPERTY = "wanshuffle.it.sparkHome";

  /** Scala binary version of the primary line's Spark jars (this JVM's). */
  public static final String SCALA_VERSION = "2.13";

  private final Path dir;
  private final String scala;

  private SparkHome(Path dir, String scala) {
    this.dir = dir;
    this.scala = scala;
  }

  /**
   * Opens and checks a Spark home.
   *
   * @param dir folder containing {@code jars/} with a {@code spark-core_2.13-*.jar} or {@code
   *     spark-core_2.12-*.jar}
   * @return the Spark home
   * @throws IllegalStateException if the folder or the Spark core jar is missing (the message says
   *     how to build it)
   */
  public static SparkHome at(Path dir) {
    Path jars = dir.resolve("jars");
    if (!Files.isDirectory(jars)) {
      throw new IllegalStateException(
          "Spark home "
              + dir
              + " has no jars/ folder; build it with "
              + "'mvn -pl integration-tests -am package -DskipTests' (copy-dependencies fills "
              + "integration-tests/target/spark-home/jars)");
    }
    String scala = scalaOf(jars);
    if (scala == null) {
      throw new IllegalStateException(
          "Spark home "
              + dir
              + ": jars/ holds no spark-core_<scala> jar; rebuild integration-tests");
    }
    return new SparkHome(dir.toAbsolutePath(), scala);
  }

  /**
   * @param jars a Spark home's {@code jars/} folder
   * @return the Scala binary version of its {@code spark-core_<scala>-<version>.jar}, or null if it
   *     holds none
   */
  private static String scalaOf(Path jars) {
    try (Stream<Path> files = Files.list(jars)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.matches("spark-core_\\d+\\.\\d+-.*\\.jar"))
          .map(n -> n.substring("spark-core_".length(), n.indexOf('-', "spark-core_".length())))
          .findFirst()
          .orElse(null);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + jars, e);
    }
  }

  /**
   * The Spark home named by the system property {@value #PROPERTY}, else {@code
   * integration-tests/target/spark-home} relative to the working directory (the module folder under
   * Maven, the project root for the launcher).
   *
   * @return the checked Spark home
   * @throws IllegalStateException if none is found (see {@link #at(Path)})
   */
  public static SparkHome locate() {
    String prop = System.getProperty(PROPERTY);
    if (prop != null && !prop.isBlank()) {
      return at(Path.of(prop));
    }
    Path here = Path.of("target", "spark-home");
    if (Files.isDirectory(here.resolve("jars"))) {
      return at(here);
    }
    return at(Path.of("integration-tests", "target", "spark-home"));
  }

  /**
   * Makes {@code dir} a Spark home of links to the jars on this JVM's class path (system property
   * {@code java.class.path}), leaving out this project's own jars ({@link AppJars#isProjectJar}):
   * those reach executors with {@code spark.jars}. Links that exist already are kept; nothing is
   * copied or downloaded.
   *
   * @param dir the Spark home folder (created)
   * @return the checked Spark home
   * @throws IllegalStateException if no {@code spark-core_2.13} jar is on the class path
   * @throws UncheckedIOException if the folder or a link cannot be written
   */
  public static SparkHome linkClassPath(Path dir) {
    Path jars = dir.resolve("jars");
    try {
      Files.createDirectories(jars);
      for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
        Path p = Path.of(entry);
        if (!entry.endsWith(".jar") || AppJars.isProjectJar(p) || !Files.isRegularFile(p)) {
          continue;
        }
        Path link = jars.resolve(p.getFileName());
        if (!Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
          Files.createSymbolicLink(link, p.toAbsolutePath());
        }
      }
      try (Stream<Path> files = Files.list(jars)) {
        if (files.noneMatch(
            f -> f.getFileName().toString().startsWith("spark-core_" + SCALA_VERSION))) {
          throw new IllegalStateException(
              "no spark-core_"
                  + SCALA_VERSION
                  + " jar on this JVM's class path:"
                  + " run through ./wan-shuffle or the integration-tests module so Spark's jars are on it");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot build the Spark home links in " + jars, e);
    }
    return new SparkHome(dir.toAbsolutePath(), SCALA_VERSION);
  }

  /**
   * Makes {@code dir} a Spark home of links to the given jars (links that exist already are kept).
   *
   * @param dir the Spark home folder (created)
   * @param jarFiles the jars, e.g. a Spark version's runtime jars in the local Maven repository
   * @return the checked Spark home
   * @throws IllegalStateException if no {@code spark-core_<scala>} jar is among them
   * @throws UncheckedIOException if the folder or a link cannot be written
   */
  public static SparkHome linkJars(Path dir, List<Path> jarFiles) {
    Path jars = dir.resolve("jars");
    try {
      Files.createDirectories(jars);
      for (Path p : jarFiles) {
        Path link = jars.resolve(p.getFileName());
        if (!Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
          Files.createSymbolicLink(link, p.toAbsolutePath());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot build the Spark home links in " + jars, e);
    }
    return at(dir);
  }

  /**
   * @return the Spark version of the home's {@code spark-core_<scala>-<version>.jar}, e.g. {@code
   *     3.5.8}
   * @throws IllegalStateException if the jar is gone
   */
  public String sparkVersion() {
    String prefix = "spark-core_" + scala + "-";
    try (Stream<Path> files = Files.list(dir.resolve("jars"))) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith(prefix) && n.endsWith(".jar") && !n.contains("-tests"))
          .map(n -> n.substring(prefix.length(), n.length() - ".jar".length()))
          .findFirst()
          .orElseThrow(() -> new IllegalStateException("no " + prefix + "*.jar in " + dir));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir.resolve("jars"), e);
    }
  }

  /**
   * @return the Scala binary version of the home's Spark jars ({@code 2.12} or {@code 2.13});
   *     exported to Spark's processes as {@code SPARK_SCALA_VERSION}
   */
  public String scalaVersion() {
    return scala;
  }

  /**
   * @return the absolute Spark home folder
   */
  public Path dir() {
    return dir;
  }

  /**
   * @return the Java class path of a Spark daemon: {@code <home>/jars/*}
   */
  public String classPath() {
    return dir.resolve("jars") + "/*";
  }

  /**
   * @return Spark's JVM module options, one argument per element ({@link JavaModuleOptions})
   */
  public static List<String> javaModuleOptions() {
    return List.of(JavaModuleOptions.defaultModuleOptionArray());
  }
}
