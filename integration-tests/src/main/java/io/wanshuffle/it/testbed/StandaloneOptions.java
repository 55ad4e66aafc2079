package io.wanshuffle.it.testbed;

/**
 * How the standalone Spark cluster runs on the testbed ({@link SparkStandalone#start}, {@link
 * Experiment#start}).
 *
 * @param workerMemory memory each Worker offers (Spark size, e.g. {@code 1g})
 * @param authSecret shared secret, or null: with one, the Master and Workers require Spark
 *     authentication and {@link Experiment#baseConf(String)} sets {@code spark.authenticate} and
 *     the secret
 * @param workerCores cores each Worker and its executor offer ({@link
 *     Experiment#baseConf(String)}), at least 1
 * @param externalShuffleService whether every Worker runs Spark's external shuffle service, turned
 *     on for the applications by {@link Experiment#baseConf(String)}, so map output is served by
 *     the Workers' shuffle services instead of the executors (shaped testbed only: each Worker
 *     needs its own network stack for port 7337)
 * @throws IllegalArgumentException if {@code workerCores < 1}
 */
public record StandaloneOptions(
    String workerMemory, String authSecret, int workerCores, boolean externalShuffleService) {
  /** Checks the values (see the components). */
  public StandaloneOptions {
    if (workerCores < 1) {
      throw new IllegalArgumentException("workerCores must be >= 1, got " + workerCores);
    }
  }

  /**
   * @return 1 GiB per Worker, no authentication, 1 core, no external shuffle service
   */
  public static StandaloneOptions defaults() {
    return new StandaloneOptions("1g", null, 1, false);
  }

  /**
   * @param secret shared secret
   * @return these options with Spark authentication
   */
  public StandaloneOptions withAuthSecret(String secret) {
    return new StandaloneOptions(workerMemory, secret, workerCores, externalShuffleService);
  }

  /**
   * @param cores cores per Worker and executor
   * @return these options with {@code cores}
   */
  public StandaloneOptions withWorkerCores(int cores) {
    return new StandaloneOptions(workerMemory, authSecret, cores, externalShuffleService);
  }

  /**
   * @return these options with the Workers' external shuffle service
   */
  public StandaloneOptions withExternalShuffleService() {
    return new StandaloneOptions(workerMemory, authSecret, workerCores, true);
  }
}
