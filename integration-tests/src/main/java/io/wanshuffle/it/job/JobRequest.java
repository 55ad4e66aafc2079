package io.wanshuffle.it.job;

import java.util.List;
import java.util.Map;

/**
 * What one driver run does (written as JSON by the orchestrator, read by {@link DriverMain} in the
 * control host's namespace).
 *
 * @param appName Spark application name
 * @param sparkConf every Spark setting of the driver (master URL, driver host, shuffle manager,
 *     plugin keys, {@code spark.jars}, ...)
 * @param aHosts cluster A executor hosts (map tasks run here)
 * @param bHosts cluster B executor hosts (reduce tasks run here)
 * @param job {@code tpch} ({@link TpchJoinQuery}), {@code matrix} ({@link MatrixShuffleJob} from A
 *     to B) or {@code matrix-all} ({@link MatrixShuffleJob} between all hosts, A's then B's: maps
 *     and reduces on both clusters, so the shuffle crosses the backbone both ways)
 * @param tpchScale TPC-H scale factor for {@code tpch} (1.0 = lineitem of 6 million rows)
 * @param mapPartitions map tasks per shuffle input (spread round-robin over {@code aHosts})
 * @param reducePartitions reduce tasks (spread round-robin over {@code bHosts})
 * @param matrixBytes for {@code matrix}: bytes from A host i to B host j ({@code
 *     [aHosts][bHosts]}); for {@code matrix-all}: bytes from host i to host j of {@link
 *     #senderHosts()} ({@code [A + B][A + B]})
 * @param recordBytes for {@code matrix}: value size of one record, bytes
 * @param runs how many times the query runs in this application (a warm-up run comes first when
 *     {@code warmup})
 * @param warmup run a warm-up job first (JIT, connections, the plugin's estimates), not reported
 * @param killExecutorOnB kill the executor of the first B host once the reduce stage of the first
 *     measured run has read some data (fault test); 0 = no
 * @param fullWarmup with {@code warmup}: the warm-up is the measured job itself (same matrix or
 *     scale), so it takes the same code paths (with {@code spark.wanshuffle.gate.minBytes=auto} a
 *     small job's reads go ungated and leave the plugin's gated path cold); false: a small job
 *     ({@code tpch} at scale at most 0.005, {@code matrix} at 1 MiB per host pair)
 */
public record JobRequest(
    String appName,
    Map<String, String> sparkConf,
    List<String> aHosts,
    List<String> bHosts,
    String job,
    double tpchScale,
    int mapPartitions,
    int reducePartitions,
    double[][] matrixBytes,
    int recordBytes,
    int runs,
    boolean warmup,
    int killExecutorOnB,
    boolean fullWarmup) {
  /**
   * A request whose warm-up, if any, is a small job ({@code fullWarmup} false); the other
   * parameters as in the record.
   */
  public JobRequest(
      String appName,
      Map<String, String> sparkConf,
      List<String> aHosts,
      List<String> bHosts,
      String job,
      double tpchScale,
      int mapPartitions,
      int reducePartitions,
      double[][] matrixBytes,
      int recordBytes,
      int runs,
      boolean warmup,
      int killExecutorOnB) {
    this(
        appName,
        sparkConf,
        aHosts,
        bHosts,
        job,
        tpchScale,
        mapPartitions,
        reducePartitions,
        matrixBytes,
        recordBytes,
        runs,
        warmup,
        killExecutorOnB,
        false);
  }

  /**
   * The job name of a {@link MatrixShuffleJob} between all hosts (maps and reduces on both
   * clusters).
   */
  public static final String MATRIX_ALL = "matrix-all";

  /**
   * @param name another application name
   * @param conf other Spark settings
   * @return this request with {@code name} and {@code conf}, everything else the same
   */
  public JobRequest withSparkConf(String name, Map<String, String> conf) {
    return new JobRequest(
        name,
        conf,
        aHosts,
        bHosts,
        job,
        tpchScale,
        mapPartitions,
        reducePartitions,
        matrixBytes,
        recordBytes,
        runs,
        warmup,
        killExecutorOnB,
        fullWarmup);
  }

  /**
   * @return the hosts map tasks run on: A's, or for {@code matrix-all} A's then B's
   */
  public List<String> senderHosts() {
    return MATRIX_ALL.equals(job) ? allHosts() : aHosts;
  }

  /**
   * @return the hosts reduce tasks run on: B's, or for {@code matrix-all} A's then B's
   */
  public List<String> receiverHosts() {
    return MATRIX_ALL.equals(job) ? allHosts() : bHosts;
  }

  private List<String> allHosts() {
    List<String> all = new java.util.ArrayList<>(aHosts);
    all.addAll(bHosts);
    return List.copyOf(all);
  }
}
