package io.wanshuffle.spark.compat;

import org.apache.spark.SparkConf;

/**
 * Refuses a plugin jar loaded into a Spark of another line: each jar is compiled against one Spark
 * line (major.minor) and one Scala binary version, and Spark's internal classes the reader and the
 * UI use change between lines, so a mismatch would fail later and less clearly.
 */
public final class LineCheck {
  private LineCheck() {}

  /**
   * Checks the running Spark against the line this jar was built for; called by the shuffle
   * manager's constructor (driver and executors) before anything else.
   *
   * @param conf the Spark configuration, returned unchanged
   * @return {@code conf}
   * @throws IllegalStateException if the running Spark's line or Scala version differs from the
   *     jar's (the message names both)
   */
  public static SparkConf checked(SparkConf conf) {
    check(
        org.apache.spark.package$.MODULE$.SPARK_VERSION(),
        scala.util.Properties$.MODULE$.versionNumberString(),
        SparkLine.LINE,
        ScalaCollections.SCALA);
    return conf;
  }

  /**
   * Checks the running Spark against the line this jar was built for without throwing, for hosts
   * that must keep running with a wrong jar (the History Server).
   *
   * @return empty when the running Spark's line and Scala version are the jar's, else the message
   *     {@link #checked} would throw
   */
  public static java.util.Optional<String> mismatch() {
    try {
      checked(null);
      return java.util.Optional.empty();
    } catch (IllegalStateException e) {
      return java.util.Optional.of(e.getMessage());
    }
  }

  /**
   * @param sparkVersion the running Spark's version, e.g. {@code 3.5.8} or {@code 4.1.0-SNAPSHOT}
   * @param scalaVersion the running Scala library's version, e.g. {@code 2.13.16}
   * @param jarLine the Spark line the jar was built for, e.g. {@code 4.1}
   * @param jarScala the Scala binary version the jar was built for, e.g. {@code 2.13}
   * @throws IllegalStateException naming both versions if the running line (major.minor) or Scala
   *     binary version differs from the jar's
   */
  public static void check(
      String sparkVersion, String scalaVersion, String jarLine, String jarScala) {
    String line = majorMinor(sparkVersion);
    String scala = majorMinor(scalaVersion);
    if (!line.equals(jarLine) || !scala.equals(jarScala)) {
      throw new IllegalStateException(
          "wan-shuffle: this plugin jar is built for Spark "
              + jarLine
              + " (Scala "
              + jarScala
              + ") but runs in Spark "
              + sparkVersion
              + " (Scala "
              + scalaVersion
              + "): use wan-shuffle-spark-"
              + line
              + "_"
              + scala
              + "-<version>.jar");
    }
  }

  /**
   * @param version a version such as {@code 3.5.8}, {@code 4.1.0-SNAPSHOT} or {@code 2.13}
   * @return its first two dot-separated parts ({@code 3.5}), or the whole string if it has fewer
   */
  static String majorMinor(String version) {
    String[] p = version.split("[.-]");
    return p.length < 2 ? version : p[0] + "." + p[1];
  }
}
