package io.wanshuffle.it.spark;

/**
 * How a {@link SparkCluster} runs: what each Worker offers and what the daemons require.
 *
 * @param workerMemory memory each Worker offers (Spark size, e.g. {@code 1g})
 * @param authSecret shared secret, or null: with one, the Master and Workers require Spark
 *     authentication and {@link SparkCluster#conf(String)} sets {@code spark.authenticate} and the
 *     secret
 * @param workerCores cores each Worker and its executor offer ({@link SparkCluster#conf(String)}),
 *     at least 1
 * @param externalShuffleService whether every Worker runs Spark's external shuffle service, turned
 *     on for the applications by {@link SparkCluster#conf(String)}, so map output is served by the
 *     Workers' shuffle services instead of the executors (shaped testbed only: each Worker needs
 *     its own network stack for port 7337)
 * @throws IllegalArgumentException if {@code workerCores < 1}
 */
public record ClusterOptions(
    String workerMemory, String authSecret, int workerCores, boolean externalShuffleService) {
  /** Checks the values (see the components). */
  public ClusterOptions {
    if (workerCores < 1) {
      throw new IllegalArgumentException("workerCores must be >= 1, got " + workerCores);
    }
  }

  /**
   * @return 1 GiB per Worker, no authentication, 1 core, no external shuffle service
   */
  public static ClusterOptions defaults() {
    return new ClusterOptions("1g", null, 1, false);
  }

  /**
   * @param memory memory per Worker (Spark size)
   * @return these options with {@code memory}
   */
  public ClusterOptions withWorkerMemory(String memory) {
    return new ClusterOptions(memory, authSecret, workerCores, externalShuffleService);
  }

  /**
   * @param secret shared secret
   * @return these options with Spark authentication
   */
  public ClusterOptions withAuthSecret(String secret) {
    return new ClusterOptions(workerMemory, secret, workerCores, externalShuffleService);
  }

  /**
   * @param cores cores per Worker and executor
   * @return these options with {@code cores}
   */
  public ClusterOptions withWorkerCores(int cores) {
    return new ClusterOptions(workerMemory, authSecret, cores, externalShuffleService);
  }

  /**
   * @return these options with the Workers' external shuffle service
   */
  public ClusterOptions withExternalShuffleService() {
    return new ClusterOptions(workerMemory, authSecret, workerCores, true);
  }
}
