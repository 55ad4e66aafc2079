package io.wanshuffle.it.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code e2e-bench}'s Spark configuration of every run, Spark's default shuffle and wan-shuffle
 * alike ({@code --conf} sets the wan-shuffle variants' only): e.g. Spark's fetch retries and
 * network timeout, so that an outage on the testbed outlasts them and takes a stage through Spark's
 * FetchFailed and stage retry path in both.
 */
final class SparkConfOptions {
  @Option(
      names = "--spark-conf",
      paramLabel = "KEY=VALUE",
      description =
          "Spark configuration of every run, the default shuffle's too (repeatable), e.g."
              + " spark.shuffle.io.maxRetries=1")
  Map<String, String> every = new LinkedHashMap<>();

  /**
   * @param conf a run's Spark configuration, changed: the {@code --spark-conf} entries put over it
   */
  void applyTo(Map<String, String> conf) {
    conf.putAll(every);
  }
}
