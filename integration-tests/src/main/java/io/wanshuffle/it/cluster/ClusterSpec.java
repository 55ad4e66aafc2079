package io.wanshuffle.it.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link LoopbackCluster#start(ClusterSpec)} starts: named clusters of worker nodes, each
 * cluster on its own loopback /24 (the i-th cluster, counting from 1, gets {@code 127.0.i.1},
 * {@code 127.0.i.2}, ...), racks of {@link #nodesPerRack()} nodes ({@code /<cluster>/rack1}, ...),
 * and the resources of each Worker. Immutable; build with {@link #builder()} or {@link
 * #twoClusters(int, int)}.
 *
 * @param clusters cluster name to node count, in address order (at most 250 clusters of at most 250
 *     nodes)
 * @param nodesPerRack nodes per rack inside a cluster (at least 1)
 * @param workerCores cores each Worker offers (Spark {@code --cores})
 * @param workerMemory memory each Worker offers (Spark {@code --memory}, e.g. {@code 1g})
 * @param daemonHeap heap of the Master and Worker JVMs themselves (e.g. {@code 256m})
 * @param executorMemory {@code spark.executor.memory} put in {@link LoopbackCluster#driverConf}
 * @param runRoot folder under which each started cluster gets its own run folder (logs, work
 *     folders, topology table)
 * @param startTimeout how long to wait for the Master and every Worker to come up
 */
public record ClusterSpec(
    Map<String, Integer> clusters,
    int nodesPerRack,
    int workerCores,
    String workerMemory,
    String daemonHeap,
    String executorMemory,
    Path runRoot,
    Duration startTimeout) {

  /** System property naming the default {@link #runRoot()} (set by the failsafe configuration). */
  public static final String RUN_ROOT_PROPERTY = "wanshuffle.it.runDir";

  /** Checks the values; see the record components for the rules. */
  public ClusterSpec {
    clusters = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(clusters));
    if (clusters.isEmpty() || clusters.size() > 250) {
      throw new IllegalArgumentException("need 1..250 clusters, got " + clusters.size());
    }
    clusters.forEach(
        (name, n) -> {
          if (!name.matches("[A-Za-z0-9_.-]+")) {
            throw new IllegalArgumentException(
                "cluster name '" + name + "' must match [A-Za-z0-9_.-]+");
          }
          if (n < 1 || n > 250) {
            throw new IllegalArgumentException("cluster " + name + ": need 1..250 nodes, got " + n);
          }
        });
    if (nodesPerRack < 1 || workerCores < 1) {
      throw new IllegalArgumentException("nodesPerRack and workerCores must be >= 1");
    }
  }

  /**
   * Two clusters {@code clusterA} (127.0.1.x) and {@code clusterB} (127.0.2.x), one rack each,
   * Workers of 1 core and 1g, executors of 512m.
   *
   * @param nodesA nodes in cluster A
   * @param nodesB nodes in cluster B
   * @return the spec
   */
  public static ClusterSpec twoClusters(int nodesA, int nodesB) {
    return builder().cluster("clusterA", nodesA).cluster("clusterB", nodesB).build();
  }

  /**
   * @return a builder with small defaults (1 core, 1g Workers, 512m executors, 256m daemons)
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The nodes this spec describes, in address order.
   *
   * @return one {@link Node} per worker
   */
  public List<Node> nodes() {
    List<Node> out = new ArrayList<>();
    int c = 0;
    for (Map.Entry<String, Integer> e : clusters.entrySet()) {
      c++;
      for (int i = 1; i <= e.getValue(); i++) {
        int rack = (i - 1) / nodesPerRack + 1;
        out.add(
            new Node(
                e.getKey() + "-" + i,
                e.getKey(),
                "/" + e.getKey() + "/rack" + rack,
                "127.0." + c + "." + i));
      }
    }
    return out;
  }

  /** Builder of {@link ClusterSpec}; every setter returns {@code this}. */
  public static final class Builder {
    private final Map<String, Integer> clusters = new LinkedHashMap<>();
    private int nodesPerRack = Integer.MAX_VALUE;
    private int workerCores = 1;
    private String workerMemory = "1g";
    private String daemonHeap = "256m";
    private String executorMemory = "512m";
    private Path runRoot;
    private Duration startTimeout = Duration.ofSeconds(90);

    private Builder() {}

    /**
     * Adds a cluster; clusters get address blocks in the order they are added.
     *
     * @param name cluster name, used in the topology path {@code /<name>/rackN}
     * @param nodes number of Worker nodes
     * @return this builder
     */
    public Builder cluster(String name, int nodes) {
      clusters.put(name, nodes);
      return this;
    }

    /**
     * @param n nodes per rack (default: the whole cluster is one rack) @return this builder
     */
    public Builder nodesPerRack(int n) {
      this.nodesPerRack = n;
      return this;
    }

    /**
     * @param cores cores per Worker (default 1) @return this builder
     */
    public Builder workerCores(int cores) {
      this.workerCores = cores;
      return this;
    }

    /**
     * @param memory memory per Worker, Spark size syntax (default 1g) @return this builder
     */
    public Builder workerMemory(String memory) {
      this.workerMemory = memory;
      return this;
    }

    /**
     * @param heap heap of the Master/Worker JVMs (default 256m) @return this builder
     */
    public Builder daemonHeap(String heap) {
      this.daemonHeap = heap;
      return this;
    }

    /**
     * @param memory spark.executor.memory (default 512m) @return this builder
     */
    public Builder executorMemory(String memory) {
      this.executorMemory = memory;
      return this;
    }

    /**
     * @param dir folder for run folders (default: system property {@value #RUN_ROOT_PROPERTY}, else
     *     {@code target/it-runs})
     * @return this builder
     */
    public Builder runRoot(Path dir) {
      this.runRoot = dir;
      return this;
    }

    /**
     * @param timeout start-up timeout for Master and Workers (default 90 s) @return this builder
     */
    public Builder startTimeout(Duration timeout) {
      this.startTimeout = timeout;
      return this;
    }

    /**
     * @return the spec @throws IllegalArgumentException on invalid values
     */
    public ClusterSpec build() {
      Path root = runRoot;
      if (root == null) {
        String p = System.getProperty(RUN_ROOT_PROPERTY);
        root = p != null && !p.isBlank() ? Path.of(p) : Path.of("target", "it-runs");
      }
      return new ClusterSpec(
          clusters,
          nodesPerRack,
          workerCores,
          workerMemory,
          daemonHeap,
          executorMemory,
          root.toAbsolutePath(),
          startTimeout);
    }
  }
}
