package io.wanshuffle.it.spark;

import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.Teardown;
import io.wanshuffle.it.net.Testbed;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;

/**
 * Hadoop YARN on a {@link Testbed}: a ResourceManager on the control host and a NodeManager on
 * every worker host, each a child JVM of this one started on its host ({@link Node#launchPrefix()})
 * from a {@link YarnHome}; and spark-submit with {@code --master yarn} on the control host ({@link
 * #sparkSubmit}). Nothing needs HDFS: the default file system is the local one, which every host of
 * the testbed shares, so the staging folder, {@code --jars}, {@code --files}, event logs and
 * captures are plain folders.
 *
 * <p>Resources: each NodeManager offers {@link Options#nodeMemoryMb()} MB to the FIFO scheduler
 * (minimum allocation 128 MB), so that a host holds one executor and one ApplicationMaster (a
 * client-mode AM, or a cluster-mode AM with its driver) but never two executors: dynamic allocation
 * with {@code initialExecutors} = the number of hosts then starts one executor on each host.
 * Disk-health limits are off (a full shared disk must not mark nodes unhealthy), container memory
 * is not policed (the JVMs' heaps are set), containers run with the {@code
 * DefaultContainerExecutor} as this user.
 *
 * <p>Run folder: {@code conf/} ({@code yarn-site.xml}, {@code core-site.xml}, {@code
 * log4j2.properties}; spark-submit's {@code HADOOP_CONF_DIR} and {@code SPARK_CONF_DIR}), per
 * NodeManager {@code <host>/conf/}, {@code <host>/local} (container working folders) and {@code
 * <host>/logs/<application>/<container>/{stdout,stderr}} (kept {@value #KEEP_SECONDS} s after the
 * application), {@code resourcemanager.log}, {@code nodemanager-<host>.log}, {@code driver-*.log},
 * {@code staging/}, {@code topology.table} (Hadoop {@code TableMapping}, read by the
 * ResourceManager and by Spark's YARN allocator, so both place hosts in the same racks) and {@code
 * topology.conf}.
 *
 * <p>Teardown ({@link #close()}, or its {@link Teardown} at JVM exit): SIGTERM to the NodeManagers,
 * their containers and the ResourceManager, SIGKILL after 5 s; logs stay. The daemons of a JVM
 * killed with SIGKILL are killed by the next {@link #start} under the same parent folder ({@link
 * DaemonRecord}).
 */
public final class YarnCluster extends DaemonCluster {
  /** Seconds the NodeManagers keep a finished application's container folders and logs. */
  public static final int KEEP_SECONDS = 3600;

  private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
  private static final String DAEMON_HEAP = "384m";

  /** Virtual cores a NodeManager offers; the FIFO scheduler places by memory alone. */
  private static final int NODE_VCORES = 4;

  private static final Pattern RM_ACTIVE = Pattern.compile("Transitioned to active state");
  private static final Pattern NM_REGISTERED =
      Pattern.compile("Registered with ResourceManager as (\\S+):\\d+ ");
  private static final Pattern APPLICATION = Pattern.compile("(application_\\d+_\\d+)");

  /**
   * The sizes of the containers, and from them what every NodeManager offers: one executor and one
   * ApplicationMaster fit on a host, two executors do not (an executor's container is made larger
   * than the ApplicationMaster's by its memory overhead), so dynamic allocation with {@code
   * initialExecutors} = the number of hosts starts one executor on each host. Sizes in MB,
   * multiples of the scheduler's minimum allocation (128 MB) after rounding up.
   *
   * @param executorMemoryMb {@code spark.executor.memory}, MB
   * @param driverMemoryMb {@code spark.driver.memory} of a cluster-mode driver (the
   *     ApplicationMaster's heap), MB
   */
  public record Options(int executorMemoryMb, int driverMemoryMb) {
    private static final int UNIT = 128;
    private static final int MIN_OVERHEAD = 384;
    private static final int CLIENT_AM_MEMORY = 256;

    /** Checks the sizes. */
    public Options {
      if (executorMemoryMb < UNIT || driverMemoryMb < UNIT) {
        throw new IllegalArgumentException(
            "executor and driver memory must be at least "
                + UNIT
                + " MB, got "
                + executorMemoryMb
                + " and "
                + driverMemoryMb);
      }
    }

    /**
     * @return executors and cluster-mode drivers of 512 MB: containers of 1024 and 896 MB, 1920 MB
     *     a NodeManager
     */
    public static Options defaults() {
      return new Options(512, 512);
    }

    /**
     * @return the ApplicationMaster's container, MB: the larger of a client-mode AM (256 MB heap)
     *     and a cluster-mode one (the driver's heap), each with 384 MB of overhead
     */
    public int amContainerMb() {
      return roundUp(Math.max(CLIENT_AM_MEMORY, driverMemoryMb) + MIN_OVERHEAD);
    }

    /**
     * @return {@code spark.executor.memoryOverhead}, MB: at least 384, and enough that an
     *     executor's container is larger than the ApplicationMaster's
     */
    public int executorOverheadMb() {
      int heap = roundUp(executorMemoryMb);
      return Math.max(MIN_OVERHEAD, amContainerMb() + UNIT - heap);
    }

    /**
     * @return what each NodeManager offers, MB: one executor's container and one AM's
     */
    public int nodeMemoryMb() {
      return roundUp(executorMemoryMb) + executorOverheadMb() + amContainerMb();
    }

    private static int roundUp(int mb) {
      return (mb + UNIT - 1) / UNIT * UNIT;
    }
  }

  private final YarnHome home;
  private final Options options;

  private YarnCluster(Testbed testbed, YarnHome home, Path runDir, Options options) {
    super(
        testbed,
        runDir,
        new SparkJvms(
            home.sparkHome(),
            runDir,
            List.of(
                "-D" + SparkCluster.RUN_DIR_PROPERTY + "=" + runDir, "-Djava.awt.headless=true"),
            Map.of(
                "HADOOP_CONF_DIR",
                runDir.resolve("conf").toString(),
                "JAVA_HOME",
                System.getProperty("java.home"))));
    this.home = home;
    this.options = options;
  }

  /**
   * Writes the configuration and the topology table, starts the ResourceManager and the
   * NodeManagers (in parallel) and waits until every NodeManager registered under its host's
   * address.
   *
   * @param testbed the hosts
   * @param home the jars ({@link YarnHome#locate()})
   * @param runDir the cluster's run folder (created); daemons left by dead JVMs in its sibling
   *     folders are killed first
   * @param options the containers' sizes, from which each NodeManager's memory follows
   * @return the running cluster; close it (try-with-resources)
   * @throws IllegalStateException if a daemon exits or does not come up within 180 s, or a
   *     NodeManager registers under another name than its address (the message names it and quotes
   *     the end of its log), or if interrupted; whatever was started is stopped first
   * @throws UncheckedIOException if the run folder cannot be written or a JVM cannot be started
   */
  public static YarnCluster start(Testbed testbed, YarnHome home, Path runDir, Options options) {
    Path dir = DaemonStart.prepare(runDir, "YARN");
    YarnCluster c = new YarnCluster(testbed, home, dir, options);
    DaemonStart.run(dir, "YARN", c::close, c::writeConfiguration, c::startDaemons);
    return c;
  }

  private void writeConfiguration() throws IOException {
    Path conf = Files.createDirectories(runDir.resolve("conf"));
    writeTopology();
    writeXml(conf.resolve("core-site.xml"), coreSite());
    writeXml(conf.resolve("yarn-site.xml"), yarnSite(null));
    Files.writeString(conf.resolve("log4j2.properties"), LOG4J);
    Files.writeString(conf.resolve("spark-defaults.conf"), "");
    for (Node n : testbed.workers()) {
      Path nodeConf = Files.createDirectories(runDir.resolve(n.name()).resolve("conf"));
      writeXml(nodeConf.resolve("core-site.xml"), coreSite());
      writeXml(nodeConf.resolve("yarn-site.xml"), yarnSite(n));
      Files.writeString(nodeConf.resolve("log4j2.properties"), LOG4J);
    }
  }

  private static final String LOG4J =
      String.join(
          "\n",
          "rootLogger.level = info",
          "rootLogger.appenderRef.stderr.ref = console",
          "appender.console.type = Console",
          "appender.console.name = console",
          "appender.console.target = SYSTEM_ERR",
          "appender.console.layout.type = PatternLayout",
          "appender.console.layout.pattern = %d{yy/MM/dd HH:mm:ss} %p %c{1}: %m%n",
          "logger.jersey.name = org.apache.hadoop.shaded.com.sun.jersey",
          "logger.jersey.level = warn",
          "");

  private Map<String, String> coreSite() {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("fs.defaultFS", "file:///");
    c.put("hadoop.tmp.dir", runDir.resolve("tmp").toString());
    c.put("net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.TableMapping");
    c.put("net.topology.table.file.name", topologyTable().toString());
    return c;
  }

  /**
   * yarn-site.xml of the clients and the ResourceManager ({@code node} null) or of a NodeManager.
   */
  private Map<String, String> yarnSite(Node node) {
    String rm = testbed.control().address();
    Map<String, String> c = new LinkedHashMap<>();
    c.put("yarn.resourcemanager.hostname", rm);
    c.put("yarn.resourcemanager.webapp.address", rm + ":0");
    c.put(
        "yarn.resourcemanager.scheduler.class",
        "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoScheduler");
    c.put("yarn.scheduler.minimum-allocation-mb", "128");
    c.put("yarn.scheduler.maximum-allocation-mb", Integer.toString(options.nodeMemoryMb()));
    c.put("yarn.scheduler.maximum-allocation-vcores", Integer.toString(NODE_VCORES));
    c.put("yarn.resourcemanager.am.max-attempts", "1");
    c.put("yarn.nodemanager.resource.memory-mb", Integer.toString(options.nodeMemoryMb()));
    c.put("yarn.nodemanager.resource.cpu-vcores", Integer.toString(NODE_VCORES));
    c.put("yarn.nodemanager.pmem-check-enabled", "false");
    c.put("yarn.nodemanager.vmem-check-enabled", "false");
    c.put("yarn.nodemanager.disk-health-checker.max-disk-utilization-per-disk-percentage", "100");
    c.put("yarn.nodemanager.disk-health-checker.min-free-space-per-disk-mb", "0");
    c.put("yarn.nodemanager.delete.debug-delay-sec", Integer.toString(KEEP_SECONDS));
    c.put(
        "yarn.nodemanager.container-executor.class",
        "org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor");
    if (node != null) {
      String a = node.address();
      Path dir = runDir.resolve(node.name());
      c.put("yarn.nodemanager.hostname", a);
      c.put("yarn.nodemanager.address", a + ":0");
      c.put("yarn.nodemanager.bind-host", a);
      c.put("yarn.nodemanager.localizer.address", a + ":0");
      c.put("yarn.nodemanager.webapp.address", a + ":0");
      c.put("yarn.nodemanager.local-dirs", dir.resolve("local").toString());
      c.put("yarn.nodemanager.log-dirs", dir.resolve("logs").toString());
      c.put("yarn.nodemanager.recovery.dir", dir.resolve("recovery").toString());
    }
    return c;
  }

  private static void writeXml(Path file, Map<String, String> settings) throws IOException {
    Configuration c = new Configuration(false);
    settings.forEach((k, v) -> c.set(k, v, "wan-shuffle testbed"));
    try (OutputStream out = Files.newOutputStream(file)) {
      c.writeXml(out);
    }
  }

  private void startDaemons() throws IOException, InterruptedException {
    Node ctl = testbed.control();
    Daemon rm =
        startDaemon(
            "resourcemanager",
            ctl,
            runDir.resolve("conf"),
            "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager");
    Map<Node, Daemon> nms = new LinkedHashMap<>();
    for (Node n : testbed.workers()) {
      nms.put(
          n,
          startDaemon(
              "nodemanager-" + n.name(),
              n,
              runDir.resolve(n.name()).resolve("conf"),
              "org.apache.hadoop.yarn.server.nodemanager.NodeManager"));
    }
    rm.awaitLog(RM_ACTIVE, START_TIMEOUT);
    for (Map.Entry<Node, Daemon> e : nms.entrySet()) {
      String host = e.getValue().awaitLog(NM_REGISTERED, START_TIMEOUT);
      if (!host.equals(e.getKey().address())) {
        throw new IllegalStateException(
            "NodeManager on "
                + e.getKey().address()
                + " registered as "
                + host
                + ": executors would not match the topology table; see "
                + jvms.log("nodemanager-" + e.getKey().name()));
      }
    }
  }

  private Daemon startDaemon(String name, Node host, Path confDir, String mainClass)
      throws IOException {
    return startDaemon(
        name, host, DAEMON_HEAP, home.daemonClassPath(confDir), mainClass, List.of(), null);
  }

  /**
   * @return the containers' sizes the cluster was started for
   */
  public Options options() {
    return options;
  }

  /**
   * The Spark settings an application needs to run on this cluster with dynamic allocation: master
   * {@code yarn}, Spark's jars from the YARN testbed's Spark home on every host ({@code
   * spark.yarn.jars=local:...}, nothing uploaded), the staging folder on the local file system,
   * executors, a client-mode AM (256 MB) and a cluster-mode driver of the {@link Options} sizes,
   * executors with {@code cores} cores, one application attempt, dynamic allocation with shuffle
   * tracking (no external shuffle service: executors that hold shuffle data stay until it is no
   * longer needed; idle ones go after {@code idleTimeout}), from 0 to one executor per host and one
   * per host at the start, the driver on the control host in client mode, UI off, Hadoop's topology
   * mapping set to {@link #topologyTable()}. The application's jars, the shuffle manager and the
   * plugin's settings are the caller's.
   *
   * @param cores {@code spark.executor.cores}
   * @param idleTimeout {@code spark.dynamicAllocation.executorIdleTimeout} (Spark time, e.g. {@code
   *     3s})
   * @return a new mutable map, in a fixed order
   */
  public Map<String, String> conf(int cores, String idleTimeout) {
    int hosts = testbed.workers().size();
    Map<String, String> c = new LinkedHashMap<>();
    c.put("spark.master", "yarn");
    c.put("spark.yarn.jars", "local:" + home.sparkHome().dir().resolve("jars") + "/*");
    c.put("spark.yarn.stagingDir", runDir.resolve("staging").toUri().toString());
    c.put("spark.yarn.maxAppAttempts", "1");
    c.put("spark.yarn.scheduler.heartbeat.interval-ms", "1000");
    c.put("spark.yarn.am.memory", Options.CLIENT_AM_MEMORY + "m");
    c.put("spark.yarn.am.memoryOverhead", Options.MIN_OVERHEAD + "m");
    c.put("spark.driver.memory", options.driverMemoryMb() + "m");
    c.put("spark.driver.memoryOverhead", Options.MIN_OVERHEAD + "m");
    c.put("spark.executor.memory", options.executorMemoryMb() + "m");
    c.put("spark.executor.memoryOverhead", options.executorOverheadMb() + "m");
    c.put("spark.executor.cores", Integer.toString(cores));
    c.put("spark.dynamicAllocation.enabled", "true");
    c.put("spark.dynamicAllocation.shuffleTracking.enabled", "true");
    c.put("spark.dynamicAllocation.minExecutors", "0");
    c.put("spark.dynamicAllocation.initialExecutors", Integer.toString(hosts));
    c.put("spark.dynamicAllocation.maxExecutors", Integer.toString(hosts));
    c.put("spark.dynamicAllocation.executorIdleTimeout", idleTimeout);
    c.put("spark.shuffle.service.enabled", "false");
    c.put("spark.ui.enabled", "false");
    c.put("spark.hadoop.net.topology.table.file.name", topologyTable().toString());
    c.put(
        "spark.hadoop.net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.TableMapping");
    return c;
  }

  /**
   * Runs Spark's {@code spark-submit} ({@code org.apache.spark.deploy.SparkSubmit}) on the control
   * host with {@code HADOOP_CONF_DIR} = {@code <runDir>/conf} and the YARN testbed's Spark home, in
   * the run folder; in client mode the driver runs in that JVM, in cluster mode in the
   * ApplicationMaster's container and spark-submit waits for it. On YARN, {@code --files} reach the
   * containers' working folders (YARN's distributed cache) but not a client-mode driver's {@code
   * SparkFiles} folder: such a driver reads the plugin's relative {@code
   * spark.wanshuffle.topology.file} from its working directory, the run folder, which holds {@link
   * #topologyConfig()} and {@link #topologyTable()}. Spark's log (stderr) goes to {@code
   * <runDir>/<name>.log}, stdout to {@code stdout}. {@link #close()} does not stop it.
   *
   * @param name log name
   * @param jvmArgs JVM options of spark-submit (in client mode the driver's: its heap)
   * @param submitArgs spark-submit's arguments ({@code --master yarn --deploy-mode ... app.jar
   *     app-args})
   * @param stdout file for spark-submit's stdout (in client mode the application's)
   * @return the process (its PID is the JVM's)
   * @throws UncheckedIOException if it cannot be started
   */
  public Process sparkSubmit(
      String name, List<String> jvmArgs, List<String> submitArgs, Path stdout) {
    Node ctl = testbed.control();
    try {
      return jvms.start(
          ctl,
          name,
          jvmArgs,
          runDir.resolve("conf") + java.io.File.pathSeparator + home.sparkHome().classPath(),
          "org.apache.spark.deploy.SparkSubmit",
          submitArgs,
          runDir.resolve(ctl.name()).resolve("local"),
          stdout,
          runDir);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot start " + name + " on " + ctl.address() + ": " + e.getMessage(), e);
    }
  }

  /**
   * @param submitLog the log of a {@link #sparkSubmit} run
   * @return the YARN application id it submitted ({@code application_<cluster>_<n>}), if it got
   *     that far
   */
  public static Optional<String> applicationId(Path submitLog) {
    try {
      Matcher m = APPLICATION.matcher(Files.readString(submitLog));
      return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * The log file of an application's ApplicationMaster container (its first container, {@code
   * container_..._000001}), on whichever NodeManager ran it: in cluster mode the driver's output.
   *
   * @param applicationId {@code application_<cluster>_<n>}
   * @param file {@code stdout} or {@code stderr}
   * @return the file, if the AM's container folder exists
   */
  public Optional<Path> amLog(String applicationId, String file) {
    String suffix = applicationId.substring("application_".length());
    for (Node n : testbed.workers()) {
      Path app = runDir.resolve(n.name()).resolve("logs").resolve(applicationId);
      if (!Files.isDirectory(app)) {
        continue;
      }
      try (Stream<Path> containers = Files.list(app)) {
        Optional<Path> am =
            containers
                .filter(
                    p -> {
                      String c = p.getFileName().toString();
                      return c.startsWith("container_")
                          && c.contains(suffix + "_01_")
                          && c.endsWith("_000001");
                    })
                .map(p -> p.resolve(file))
                .filter(Files::isRegularFile)
                .findFirst();
        if (am.isPresent()) {
          return am;
        }
      } catch (IOException e) {
        // not readable: try the next host
      }
    }
    return Optional.empty();
  }
}
