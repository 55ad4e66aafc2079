package io.wanshuffle.it.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;

/**
 * A Spark standalone deployment of several "clusters" on loopback aliases of this machine, for
 * tests that need real executors on distinct hosts but no root and no network namespaces: one
 * Master on {@code 127.0.0.1} and one Worker per {@link Node} on {@code 127.0.c.i} (cluster {@code
 * c}, node {@code i}; every 127/8 address is loopback on Linux), all child processes of this JVM,
 * plus a Hadoop {@code TableMapping} topology file mapping each node's address to {@code
 * /<cluster>/rack<r>}. Ports are chosen by the daemons at run time (port 0), so several clusters
 * can run side by side. Nothing is shaped: traffic between "clusters" runs at memory speed, so only
 * correctness and scheduling behaviour can be tested, not WAN timing.
 *
 * <p>Typical use (the driver runs in the calling JVM, bound to {@code 127.0.0.1}):
 *
 * <pre>{@code
 * try (LoopbackCluster cluster = LoopbackCluster.start(ClusterSpec.twoClusters(2, 2))) {
 *   SparkConf conf = cluster.driverConf("my-test").set("spark.jars", AppJars.pluginJar() + ...);
 *   try (SparkSession spark = SparkSession.builder().config(conf).getOrCreate()) {
 *     cluster.awaitExecutors(spark.sparkContext(), Duration.ofSeconds(60));
 *     ... spark jobs; Placement pins tasks to cluster.hosts("clusterA") ...
 *   }
 * }
 * }</pre>
 *
 * <p>Tear-down: {@link #close()} kills the Master, the Workers and their executors (SIGTERM, then
 * SIGKILL after 5 s). A JVM shutdown hook closes clusters still open when the JVM exits (normal
 * exit, Ctrl-C, SIGTERM), and {@link #start} kills daemons that a previous JVM killed with SIGKILL
 * left behind under the same run root (their PIDs and start times are recorded in {@code <run
 * folder>/daemons.pid}).
 *
 * <p>Logs: {@link #runDir()} holds {@code master.log}, {@code worker-<node>.log}, the Workers' work
 * folders ({@code work/<node>/<app>/<executor>/stderr} are the executor logs) and {@code
 * topology.table}.
 */
public final class LoopbackCluster implements AutoCloseable {
  /**
   * JVM system property set on every daemon this class starts, value = its {@link #runDir()}: find
   * a cluster's processes with {@code ps -ef | grep wanshuffle.loopback.runDir}.
   */
  public static final String RUN_DIR_PROPERTY = "wanshuffle.loopback.runDir";

  /** Address of the Master (and the natural driver address). */
  public static final String CONTROL_HOST = "127.0.0.1";

  private static final Set<LoopbackCluster> OPEN =
      Collections.synchronizedSet(new LinkedHashSet<>());

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  List<LoopbackCluster> open;
                  synchronized (OPEN) {
                    open = new ArrayList<>(OPEN);
                  }
                  open.forEach(LoopbackCluster::close);
                },
                "loopback-cluster-teardown"));
  }

  private final ClusterSpec spec;
  private final SparkHome sparkHome;
  private final Path runDir;
  private final Path topologyFile;
  private final StandaloneProcesses processes;
  private String masterUrl;
  private boolean closed;

  private LoopbackCluster(ClusterSpec spec, SparkHome sparkHome, Path runDir) {
    this.spec = spec;
    this.sparkHome = sparkHome;
    this.runDir = runDir;
    this.topologyFile = runDir.resolve("topology.table");
    // the marker property: a cluster's processes are found with ps, leak checks
    this.processes =
        StandaloneProcesses.open(
            sparkHome,
            runDir,
            spec.daemonHeap(),
            List.of("-D" + RUN_DIR_PROPERTY + "=" + runDir),
            true);
  }

  /**
   * Starts a cluster with the Spark home found by {@link SparkHome#locate()}.
   *
   * @see #start(ClusterSpec, SparkHome)
   */
  public static LoopbackCluster start(ClusterSpec spec) throws IOException, InterruptedException {
    return start(spec, SparkHome.locate());
  }

  /**
   * Writes the topology table, starts the Master and one Worker per node, and waits until every
   * Worker has registered (about 10 s for 4 Workers). On any failure, whatever was started is
   * killed before the exception propagates.
   *
   * @param spec clusters, nodes and resources
   * @param sparkHome Spark home whose {@code jars/} is the daemons' class path
   * @return the running cluster; close it (try-with-resources)
   * @throws IllegalStateException if a daemon exits or does not become ready within {@link
   *     ClusterSpec#startTimeout()} (the message holds the tail of its log)
   * @throws IOException if the run folder cannot be written
   * @throws InterruptedException if interrupted while waiting (everything started is killed)
   */
  public static LoopbackCluster start(ClusterSpec spec, SparkHome sparkHome)
      throws IOException, InterruptedException {
    Files.createDirectories(spec.runRoot());
    StandaloneProcesses.reapLeftovers(spec.runRoot());
    String stamp =
        DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS")
            .withZone(ZoneOffset.UTC)
            .format(Instant.now());
    Path runDir =
        Files.createDirectories(
            spec.runRoot().resolve("cluster-" + stamp + "-" + ProcessHandle.current().pid()));
    LoopbackCluster c = new LoopbackCluster(spec, sparkHome, runDir);
    OPEN.add(c);
    try {
      c.writeTopology();
      c.startDaemons();
      return c;
    } catch (IOException | InterruptedException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  private void writeTopology() throws IOException {
    Files.createDirectories(runDir.resolve("conf"));
    StringBuilder sb = new StringBuilder("# host  network-path (Hadoop TableMapping format)\n");
    for (Node n : spec.nodes()) {
      sb.append(n.host()).append(' ').append(n.rack()).append('\n');
    }
    Files.writeString(topologyFile, sb.toString());
  }

  private void startDaemons() throws IOException, InterruptedException {
    Duration timeout = spec.startTimeout();
    masterUrl = processes.startMaster(List.of(), CONTROL_HOST, 0, null, timeout);
    for (Node n : spec.nodes()) {
      processes.startWorker(
          n.name(),
          List.of(),
          n.host(),
          spec.workerCores(),
          spec.workerMemory(),
          runDir.resolve("work").resolve(n.name()),
          runDir.resolve("local").resolve(n.name()),
          masterUrl);
    }
    processes.awaitWorkers(timeout);
  }

  /**
   * @return the Master URL, {@code spark://127.0.0.1:<port>}
   */
  public String masterUrl() {
    return masterUrl;
  }

  /**
   * @return the spec this cluster was started from
   */
  public ClusterSpec spec() {
    return spec;
  }

  /**
   * @return every worker node, in address order
   */
  public List<Node> nodes() {
    return spec.nodes();
  }

  /**
   * @param cluster a cluster name of the spec
   * @return the loopback addresses of that cluster's nodes, in order
   * @throws IllegalArgumentException if the spec has no such cluster
   */
  public List<String> hosts(String cluster) {
    if (!spec.clusters().containsKey(cluster)) {
      throw new IllegalArgumentException(
          "no cluster '" + cluster + "'; clusters: " + spec.clusters().keySet());
    }
    return nodes().stream()
        .filter(n -> n.cluster().equals(cluster))
        .map(Node::host)
        .collect(Collectors.toList());
  }

  /**
   * @return every node's address, in order
   */
  public List<String> allHosts() {
    return nodes().stream().map(Node::host).collect(Collectors.toList());
  }

  /**
   * @return the Hadoop {@code TableMapping} file: one line {@code <address> /<cluster>/rack<r>} per
   *     node
   */
  public Path topologyFile() {
    return topologyFile;
  }

  /**
   * @return this cluster's run folder (logs, work folders, topology table)
   */
  public Path runDir() {
    return runDir;
  }

  /**
   * @return the Spark home the daemons run from
   */
  public SparkHome sparkHome() {
    return sparkHome;
  }

  /**
   * A driver configuration for this cluster: master URL, driver bound to {@value #CONTROL_HOST},
   * one executor per Worker ({@code spark.executor.cores} = Worker cores, {@code spark.cores.max} =
   * all cores), executor memory from the spec, UI off, and Hadoop's topology mapping set to the
   * table ({@code spark.hadoop.net.topology.node.switch.mapping.impl} = {@code
   * org.apache.hadoop.net.TableMapping}, {@code spark.hadoop.net.topology.table.file.name} = {@link
   * #topologyFile()}). Add {@code spark.jars} and the shuffle manager yourself.
   *
   * @param appName Spark application name
   * @return a new mutable configuration
   */
  public SparkConf driverConf(String appName) {
    int nodes = nodes().size();
    return new SparkConf()
        .setMaster(masterUrl)
        .setAppName(appName)
        .set("spark.driver.host", CONTROL_HOST)
        .set("spark.driver.bindAddress", CONTROL_HOST)
        .set("spark.executor.cores", String.valueOf(spec.workerCores()))
        .set("spark.cores.max", String.valueOf(nodes * spec.workerCores()))
        .set("spark.executor.memory", spec.executorMemory())
        .set("spark.ui.enabled", "false")
        .set(
            "spark.hadoop.net.topology.node.switch.mapping.impl",
            "org.apache.hadoop.net.TableMapping")
        .set("spark.hadoop.net.topology.table.file.name", topologyFile.toString());
  }

  /**
   * Waits until every node runs an executor of the application (at the start, so that tasks are not
   * all placed on the first executor that registers, and after an executor was killed).
   *
   * @param sc the running driver
   * @param timeout how long to wait
   * @throws IllegalStateException if some nodes have no executor after {@code timeout} (names them)
   * @throws InterruptedException if interrupted
   */
  public void awaitExecutors(SparkContext sc, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Set<String> missing = new LinkedHashSet<>(allHosts());
      for (org.apache.spark.SparkExecutorInfo e : sc.statusTracker().getExecutorInfos()) {
        missing.remove(e.host());
      }
      if (missing.isEmpty()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "no executor on "
                + missing
                + " after "
                + timeout.toSeconds()
                + " s; see the Worker logs in "
                + runDir);
      }
      Thread.sleep(100);
    }
  }

  /**
   * Kills (SIGKILL, like a crash) the executor JVMs that the Worker on {@code host} runs. The
   * Master then asks the Worker for a replacement executor.
   *
   * @param host a node address
   * @return how many executor processes were killed (0 if none was running)
   * @throws IllegalArgumentException if no Worker runs on {@code host}
   */
  public int killExecutors(String host) {
    return processes.killExecutors(host);
  }

  /**
   * @return the live daemon processes and their descendants (executors), for leak checks
   */
  List<ProcessHandle> processes() {
    return processes.processes();
  }

  /**
   * Kills the Workers (and their executors) and the Master: SIGTERM, then SIGKILL after 5 s.
   * Idempotent; also run by the shutdown hook. Logs stay in {@link #runDir()}.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      processes.close();
    } finally {
      OPEN.remove(this);
    }
  }
}
