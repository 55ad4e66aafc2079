package io.wanshuffle.it.spark;

import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.Teardown;
import io.wanshuffle.it.net.Testbed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkExecutorInfo;

/**
 * Spark standalone on a {@link Testbed}, the one Spark launcher of the module: the Master on the
 * control host, one Worker per worker host, each JVM a child process of this JVM started on its
 * host ({@link Node#launchPrefix()}) and bound to the host's address, ports chosen by the daemons
 * at run time; and drivers started the same way ({@link #launchJava}, {@link #sparkSubmit}), or in
 * this JVM with {@link #conf(String)} on the loopback variant.
 *
 * <p>Run folder: {@code master.log}, {@code worker-<host>.log}, {@code driver-*.log}, {@code
 * conf/spark-defaults.conf} (the daemons' authentication and shuffle service), {@code
 * topology.table} (Hadoop {@code TableMapping}), {@code topology.conf} (the links, for the plugin
 * and {@code plan --topology}), {@code daemons.pid}, and per host {@code <host>/work} (executor
 * logs: {@code work/<app id>/<executor id>/stderr}) and {@code <host>/local}. Every daemon carries
 * {@code -D}{@value #RUN_DIR_PROPERTY}{@code =<run folder>}, so {@code ps -ef | grep} finds a
 * cluster's processes.
 *
 * <p>Teardown ({@link #close()}, or its {@link Teardown} at JVM exit): SIGTERM to the Workers,
 * their executors and the Master, SIGKILL after 5 s; logs stay. Drivers started here are the
 * caller's to stop. The daemons of a JVM killed with SIGKILL are killed by the next {@link #start}
 * under the same parent folder ({@link DaemonRecord}).
 */
public final class SparkCluster extends DaemonCluster {
  /** JVM system property set on every daemon, value = the cluster's run folder. */
  public static final String RUN_DIR_PROPERTY = "wanshuffle.it.sparkRunDir";

  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static final String DAEMON_HEAP = "256m";
  private static final Pattern MASTER_URL =
      Pattern.compile("Starting Spark master at (spark://\\S+)");
  private static final Pattern LEADER = Pattern.compile("I have been elected leader");
  private static final Pattern REGISTERED = Pattern.compile("Successfully registered with master");

  private final SparkHome sparkHome;
  private final ClusterOptions options;
  private final Map<String, Daemon> workers = new LinkedHashMap<>();
  private String masterUrl;

  private SparkCluster(Testbed testbed, SparkHome sparkHome, Path runDir, ClusterOptions options) {
    super(
        testbed,
        runDir,
        new SparkJvms(
            sparkHome,
            runDir,
            List.of("-D" + RUN_DIR_PROPERTY + "=" + runDir, "-Djava.awt.headless=true")));
    this.sparkHome = sparkHome;
    this.options = options;
  }

  /**
   * Writes the daemons' configuration and the topology table, starts the Master and the Workers and
   * waits until every Worker registered. With an authentication secret the Master and Workers
   * require Spark authentication ({@code spark.authenticate=true} and the shared secret in {@code
   * spark-defaults.conf}; applications must then set the same secret, as {@link #conf(String)}
   * does). With the external shuffle service, every Worker also runs it ({@code
   * spark.shuffle.service.enabled=true} in the daemons' {@code spark-defaults.conf}, port 7337 on
   * the Worker's host), which then serves the map output of the applications that enable it too;
   * each Worker needs its own network stack for that port: the shaped testbed's namespaces, not
   * loopback addresses (there the second Worker cannot bind it and does not start). Workers
   * offering several cores run several reduce tasks of a stage at once in one executor, sharing its
   * host's ports.
   *
   * @param testbed the hosts
   * @param sparkHome the Spark home the daemons run from ({@link SparkHome#locate()} or {@link
   *     SparkHome#linkClassPath(Path)})
   * @param runDir the cluster's run folder (created); the daemons left by dead JVMs in its sibling
   *     folders are killed first
   * @param options Worker memory and cores, authentication secret, external shuffle service
   * @return the running cluster; close it (try-with-resources)
   * @throws IllegalStateException if a daemon exits or does not come up within 120 s (the message
   *     names it and quotes the end of its log), or if interrupted; whatever was started is stopped
   *     first
   * @throws UncheckedIOException if the run folder cannot be written or a JVM cannot be started
   */
  public static SparkCluster start(
      Testbed testbed, SparkHome sparkHome, Path runDir, ClusterOptions options) {
    Path dir = DaemonStart.prepare(runDir, "Spark");
    SparkCluster c = new SparkCluster(testbed, sparkHome, dir, options);
    DaemonStart.run(dir, "Spark", c::close, c::writeConfiguration, c::startDaemons);
    return c;
  }

  private void writeConfiguration() throws IOException {
    Path conf = Files.createDirectories(runDir.resolve("conf"));
    String defaults =
        (options.authSecret() == null
                ? ""
                : "spark.authenticate true\nspark.authenticate.secret "
                    + options.authSecret()
                    + "\n")
            + (options.externalShuffleService() ? "spark.shuffle.service.enabled true\n" : "");
    Files.writeString(conf.resolve("spark-defaults.conf"), defaults);
    writeTopology();
  }

  private void startDaemons() throws IOException, InterruptedException {
    Node ctl = testbed.control();
    Daemon master =
        startDaemon(
            "master",
            ctl,
            "org.apache.spark.deploy.master.Master",
            List.of("--host", ctl.address(), "--port", "0", "--webui-port", "0"));
    masterUrl = master.awaitLog(MASTER_URL, START_TIMEOUT);
    master.awaitLog(LEADER, START_TIMEOUT);
    for (Node n : testbed.workers()) {
      Path workDir = Files.createDirectories(runDir.resolve(n.name()).resolve("work"));
      Daemon w =
          startDaemon(
              "worker-" + n.name(),
              n,
              "org.apache.spark.deploy.worker.Worker",
              List.of(
                  "--host",
                  n.address(),
                  "--port",
                  "0",
                  "--webui-port",
                  "0",
                  "--cores",
                  Integer.toString(options.workerCores()),
                  "--memory",
                  options.workerMemory(),
                  "--work-dir",
                  workDir.toString(),
                  masterUrl));
      workers.put(n.address(), w);
    }
    for (Daemon w : workers.values()) {
      w.awaitLog(REGISTERED, START_TIMEOUT);
    }
  }

  private Daemon startDaemon(String name, Node host, String mainClass, List<String> args)
      throws IOException {
    return startDaemon(
        name, host, DAEMON_HEAP, sparkHome.classPath(), mainClass, args, localDir(host));
  }

  private Path localDir(Node host) {
    return runDir.resolve(host.name()).resolve("local");
  }

  /**
   * @return the Master URL as the Master logged it, {@code spark://<control address>:<port>}
   */
  public String masterUrl() {
    return masterUrl;
  }

  /**
   * @return the options the cluster was started with
   */
  public ClusterOptions options() {
    return options;
  }

  /**
   * The Spark settings any application needs to run on this cluster: master, driver on the control
   * host ({@code spark.driver.host} and {@code bindAddress}), one executor per Worker with the
   * Worker's cores ({@code spark.executor.cores}, {@code spark.cores.max} = all cores), executor
   * memory, UI off, Hadoop's topology mapping set to {@link #topologyTable()}; authentication and
   * the external shuffle service when the cluster runs with them. The job jars, the shuffle manager
   * and the plugin's settings are the caller's.
   *
   * @param executorMemory {@code spark.executor.memory} (Spark size, e.g. {@code 512m})
   * @return a new mutable map, in a fixed order
   */
  public Map<String, String> conf(String executorMemory) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("spark.master", masterUrl);
    c.put("spark.driver.host", testbed.control().address());
    c.put("spark.driver.bindAddress", testbed.control().address());
    c.put("spark.executor.cores", Integer.toString(options.workerCores()));
    c.put("spark.cores.max", Integer.toString(testbed.workers().size() * options.workerCores()));
    c.put("spark.executor.memory", executorMemory);
    c.put("spark.ui.enabled", "false");
    c.put("spark.hadoop.net.topology.table.file.name", topologyTable().toString());
    c.put(
        "spark.hadoop.net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.TableMapping");
    if (options.authSecret() != null) {
      c.put("spark.authenticate", "true");
      c.put("spark.authenticate.secret", options.authSecret());
    }
    if (options.externalShuffleService()) {
      c.put("spark.shuffle.service.enabled", "true");
    }
    return c;
  }

  /**
   * Starts a Java program (a driver) on a host of the testbed with Spark's environment and JVM
   * options ({@link SparkJvms}); output goes to {@code <runDir>/<name>.log}. {@link #close()} does
   * not stop it.
   *
   * @param node host
   * @param name log name
   * @param jvmArgs extra JVM options
   * @param classPath class path
   * @param mainClass main class
   * @param args program arguments
   * @return the process (its PID is the JVM's: {@code ip netns exec} replaces itself)
   * @throws UncheckedIOException if it cannot be started
   */
  public Process launchJava(
      Node node,
      String name,
      List<String> jvmArgs,
      String classPath,
      String mainClass,
      List<String> args) {
    return launch(node, name, jvmArgs, classPath, mainClass, args, null);
  }

  /**
   * Runs Spark's {@code spark-submit} (its class {@code org.apache.spark.deploy.SparkSubmit}, what
   * the script runs) on a host of the testbed, so that an application's driver runs there in client
   * mode, with Spark's environment as in {@link #launchJava}; the class path is this cluster's
   * Spark home, and the application's jar and {@code --jars} reach the driver through spark-submit,
   * as on a real cluster. Spark's log (stderr) goes to {@code <runDir>/<name>.log}, the
   * application's stdout to {@code stdout}. {@link #close()} does not stop it.
   *
   * @param node host of the driver
   * @param name log name
   * @param jvmArgs JVM options of the driver (its heap: {@code spark.driver.memory} cannot resize a
   *     running JVM)
   * @param submitArgs spark-submit's arguments ({@code --master ... --conf ... app.jar app-args})
   * @param stdout file for the application's stdout
   * @return the process (its PID is the JVM's)
   * @throws UncheckedIOException if it cannot be started
   */
  public Process sparkSubmit(
      Node node, String name, List<String> jvmArgs, List<String> submitArgs, Path stdout) {
    return launch(
        node,
        name,
        jvmArgs,
        sparkHome.classPath(),
        "org.apache.spark.deploy.SparkSubmit",
        submitArgs,
        stdout);
  }

  private Process launch(
      Node node,
      String name,
      List<String> jvmArgs,
      String classPath,
      String mainClass,
      List<String> args,
      Path stdout) {
    try {
      return jvms.start(node, name, jvmArgs, classPath, mainClass, args, localDir(node), stdout);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot start " + name + " on " + node.address() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Kills (SIGKILL, like a crash) the executor JVMs that the Worker on {@code address} runs; the
   * Master then asks that Worker for a replacement executor.
   *
   * @param address a worker host's address
   * @return how many executor processes were killed (0 if none was running)
   * @throws IllegalArgumentException if no Worker runs on {@code address}
   */
  public int killExecutors(String address) {
    Daemon w = workers.get(address);
    if (w == null) {
      throw new IllegalArgumentException(
          "no Worker on " + address + "; Workers on " + workers.keySet());
    }
    List<ProcessHandle> execs =
        w.handle()
            .descendants()
            .filter(p -> p.info().commandLine().orElse("").contains("CoarseGrainedExecutorBackend"))
            .toList();
    execs.forEach(ProcessHandle::destroyForcibly);
    return execs.size();
  }

  /**
   * Asks the executor JVMs that the Worker on {@code address} runs to decommission themselves, as a
   * cloud provider's notice or an operator's {@code kill -PWR} does: SIGPWR, which an executor
   * handles when the application sets {@code spark.decommission.enabled} (it stops taking tasks,
   * migrates its blocks if {@code spark.storage.decommission.*} says so, then exits).
   *
   * @param address a worker host's address
   * @return how many executor processes were signalled (0 if none was running)
   * @throws IllegalArgumentException if no Worker runs on {@code address}
   * @throws IllegalStateException if {@code kill} fails
   */
  public int decommissionExecutors(String address) {
    Daemon w = workers.get(address);
    if (w == null) {
      throw new IllegalArgumentException(
          "no Worker on " + address + "; Workers on " + workers.keySet());
    }
    List<ProcessHandle> execs =
        w.handle()
            .descendants()
            .filter(p -> p.info().commandLine().orElse("").contains("CoarseGrainedExecutorBackend"))
            .toList();
    for (ProcessHandle e : execs) {
      try {
        Process kill = new ProcessBuilder("kill", "-PWR", Long.toString(e.pid())).start();
        if (kill.waitFor() != 0) {
          throw new IllegalStateException("kill -PWR " + e.pid() + " failed");
        }
      } catch (IOException ex) {
        throw new IllegalStateException("cannot signal executor " + e.pid(), ex);
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while signalling executor " + e.pid(), ex);
      }
    }
    return execs.size();
  }

  /**
   * Waits until every worker host runs an executor of the application (at the start, so that tasks
   * are not all placed on the first executor that registers, and after an executor was killed).
   *
   * @param sc the running driver, in this JVM
   * @param timeout how long to wait
   * @throws IllegalStateException if some hosts have no executor after {@code timeout} (names them
   *     and the run folder with the Worker logs)
   * @throws InterruptedException if interrupted
   */
  public void awaitExecutors(SparkContext sc, Duration timeout) throws InterruptedException {
    awaitExecutors(
        sc, Node.addresses(testbed.workers()), timeout, "; see the Worker logs in " + runDir);
  }

  /**
   * Waits until each of {@code hosts} runs an executor of the application.
   *
   * @param sc the running driver
   * @param hosts executor hosts (addresses)
   * @param timeout how long to wait
   * @throws IllegalStateException if some hosts have no executor after {@code timeout} (names them)
   * @throws InterruptedException if interrupted
   */
  public static void awaitExecutors(SparkContext sc, Collection<String> hosts, Duration timeout)
      throws InterruptedException {
    awaitExecutors(sc, hosts, timeout, "");
  }

  private static void awaitExecutors(
      SparkContext sc, Collection<String> hosts, Duration timeout, String hint)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Set<String> missing = new LinkedHashSet<>(hosts);
      for (SparkExecutorInfo e : sc.statusTracker().getExecutorInfos()) {
        missing.remove(e.host());
      }
      if (missing.isEmpty()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "no executor on " + missing + " after " + timeout.toSeconds() + " s" + hint);
      }
      Thread.sleep(100);
    }
  }

  /**
   * @param text a log's text
   * @return its last 30 lines, for error messages
   */
  public static String tail(String text) {
    return Daemon.tail(text);
  }
}
