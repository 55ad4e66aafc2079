package io.wanshuffle.it.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The YARN testbed's jars, made of Maven jars by the {@code spark-home-yarn} module: a Spark home
 * of Spark {@value #SPARK_VERSION} with {@code spark-yarn} ({@code jars/}: what spark-submit, the
 * ApplicationMaster and the executors run with) and the Hadoop YARN servers ({@code hadoop/}: the
 * ResourceManager and NodeManagers, {@code hadoop-client-minicluster} and what it does not shade).
 */
public final class YarnHome {
  /** System property naming the folder (set by the failsafe configuration). */
  public static final String PROPERTY = "wanshuffle.it.yarnSparkHome";

  /** The Spark version of {@code jars/}: the 4.x line whose spark-yarn jar Maven Central serves. */
  public static final String SPARK_VERSION = "4.2.0";

  private static final Path BUILT = Path.of("spark-home-yarn", "target", "spark-home");

  private final SparkHome spark;
  private final Path hadoop;

  private YarnHome(SparkHome spark, Path hadoop) {
    this.spark = spark;
    this.hadoop = hadoop;
  }

  /**
   * Opens and checks the folder.
   *
   * @param dir folder with {@code jars/} (a Spark home holding {@code spark-yarn_2.13}) and {@code
   *     hadoop/} (holding {@code hadoop-client-minicluster})
   * @return the checked folder
   * @throws IllegalStateException if a part is missing (the message says how to build it)
   */
  public static YarnHome at(Path dir) {
    SparkHome spark;
    try {
      spark = SparkHome.at(dir);
    } catch (IllegalStateException e) {
      throw new IllegalStateException(e.getMessage() + "; " + buildHint(dir), e);
    }
    requireJar(dir.resolve("jars"), "spark-yarn_" + SparkHome.SCALA_VERSION + "-", dir);
    requireJar(dir.resolve("hadoop"), "hadoop-client-minicluster-", dir);
    return new YarnHome(spark, dir.toAbsolutePath().resolve("hadoop"));
  }

  /**
   * The folder named by {@value #PROPERTY}, else {@code spark-home-yarn/target/spark-home} under
   * the working directory (the project root, for the launcher) or its parent (a module folder,
   * under Maven).
   *
   * @return the checked folder
   * @throws IllegalStateException if none is found or it is incomplete (see {@link #at(Path)})
   */
  public static YarnHome locate() {
    String prop = System.getProperty(PROPERTY);
    if (prop != null && !prop.isBlank()) {
      return at(Path.of(prop));
    }
    Path up = Path.of("..").resolve(BUILT);
    return at(Files.isDirectory(BUILT) || !Files.isDirectory(up) ? BUILT : up);
  }

  /**
   * The plugin jar for Spark {@value #SPARK_VERSION}, as a user passes it to {@code spark-submit
   * --jars}: the 4.2 line's shaded jar ({@link SparkLines#pluginJar}, built on first use when
   * missing).
   *
   * @return the jar's path
   * @throws IllegalStateException if it cannot be built
   */
  public static Path pluginJar() {
    return SparkLines.pluginJar(SparkLines.line("4.2_2.13"), System.out::println);
  }

  /**
   * @return the Spark home ({@code jars/})
   */
  public SparkHome sparkHome() {
    return spark;
  }

  /**
   * @param confDir the Hadoop configuration folder ({@code yarn-site.xml}, {@code core-site.xml},
   *     {@code log4j2.properties})
   * @return the class path of the ResourceManager and the NodeManagers: the configuration, the YARN
   *     servers, then Spark's jars (for logging)
   */
  public String daemonClassPath(Path confDir) {
    return String.join(
        java.io.File.pathSeparator, List.of(confDir.toString(), hadoop + "/*", spark.classPath()));
  }

  private static void requireJar(Path folder, String prefix, Path dir) {
    try (Stream<Path> files = Files.isDirectory(folder) ? Files.list(folder) : Stream.empty()) {
      if (files.noneMatch(p -> p.getFileName().toString().startsWith(prefix))) {
        throw new IllegalStateException(
            "YARN testbed folder "
                + dir
                + ": no "
                + prefix
                + "*.jar in "
                + folder
                + "; "
                + buildHint(dir));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + folder, e);
    }
  }

  private static String buildHint(Path dir) {
    return "build it with 'mvn -pl spark-home-yarn package' (fills " + dir + ")";
  }
}
