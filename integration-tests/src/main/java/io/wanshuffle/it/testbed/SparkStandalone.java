package io.wanshuffle.it.testbed;

import io.wanshuffle.it.cluster.SparkHome;
import io.wanshuffle.it.cluster.StandaloneProcesses;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.Testbed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Spark standalone on a {@link Testbed}: the Master on the control host (port 7077), one Worker (1
 * core unless asked otherwise) per worker host, each JVM started through the testbed's launch
 * prefix ({@code ip netns exec <ns>} on the shaped testbed) and bound to the host's address; and
 * the drivers, started the same way on the control host. The processes are {@link
 * StandaloneProcesses}, the launcher the loopback clusters use too; the Spark home is a folder of
 * links to the runtime jars this JVM already runs with ({@link SparkHome#linkClassPath(Path)}), so
 * nothing is downloaded or copied.
 *
 * <p>Run folder: {@code master.log}, {@code worker-<host>.log}, {@code driver-*.log}, {@code
 * conf/}, {@code spark-home/}, and per host {@code <host>/work} (executor logs) and {@code
 * <host>/local}.
 */
public final class SparkStandalone implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static final int MASTER_PORT = 7077;
  private static final String DAEMON_HEAP = "256m";

  private final Testbed testbed;
  private final Path runDir;
  private final String authSecret;
  private final StandaloneProcesses processes;
  private final SparkHome sparkHome;
  private final int workerCores;
  private final boolean externalShuffleService;
  private final Thread hook = new Thread(this::stopAll, "spark-standalone-teardown");

  private SparkStandalone(
      Testbed testbed,
      Path runDir,
      SparkHome sparkHome,
      String authSecret,
      int workerCores,
      boolean externalShuffleService) {
    this.testbed = testbed;
    this.workerCores = workerCores;
    this.externalShuffleService = externalShuffleService;
    this.runDir = runDir;
    this.authSecret = authSecret;
    this.sparkHome = sparkHome;
    this.processes =
        StandaloneProcesses.open(
            sparkHome, runDir, DAEMON_HEAP, List.of("-Djava.awt.headless=true"), false);
  }

  /**
   * Starts the Master and the Workers and waits until every Worker registered. With an
   * authentication secret the Master and Workers require Spark authentication ({@code
   * spark.authenticate=true} and the shared secret in {@code spark-defaults.conf}; applications
   * must then set the same secret). With the external shuffle service, every Worker also runs it
   * ({@code spark.shuffle.service.enabled=true} in the daemons' {@code spark-defaults.conf}, port
   * 7337 on the Worker's host), which then serves the map output of the applications that enable it
   * too; each Worker needs its own network stack for that port: the shaped testbed's namespaces,
   * not loopback aliases (there the second Worker cannot bind it and does not start). Workers
   * offering several cores run several reduce tasks of a stage at once in one executor, sharing its
   * host's ports.
   *
   * @param testbed the hosts
   * @param runDir folder for logs, work folders, local folders and the Spark home links
   * @param options Worker memory and cores, authentication secret, external shuffle service
   * @return the running cluster (closed by {@link #close()} and by a shutdown hook)
   * @throws IllegalStateException if a daemon exits or does not come up within 120 s (the message
   *     quotes its log), or if Spark's jars are not on this JVM's class path; whatever was started
   *     is stopped first
   * @throws UncheckedIOException if the run folder cannot be written or a JVM cannot be started
   */
  public static SparkStandalone start(Testbed testbed, Path runDir, StandaloneOptions options) {
    String workerMemory = options.workerMemory();
    String authSecret = options.authSecret();
    int workerCores = options.workerCores();
    boolean externalShuffleService = options.externalShuffleService();
    Path dir = runDir.toAbsolutePath();
    writeDefaults(dir, authSecret, externalShuffleService);
    SparkStandalone s =
        new SparkStandalone(
            testbed,
            dir,
            SparkHome.linkClassPath(dir.resolve("spark-home")),
            authSecret,
            workerCores,
            externalShuffleService);
    Runtime.getRuntime().addShutdownHook(s.hook);
    try {
      s.startDaemons(workerMemory);
    } catch (IOException e) {
      s.close();
      throw new UncheckedIOException("cannot start Spark in " + dir + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      s.close();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting Spark", e);
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
    return s;
  }

  private static void writeDefaults(
      Path runDir, String authSecret, boolean externalShuffleService) {
    try {
      Path conf = Files.createDirectories(runDir.resolve("conf"));
      String text =
          (authSecret == null
                  ? ""
                  : "spark.authenticate true\nspark.authenticate.secret " + authSecret + "\n")
              + (externalShuffleService ? "spark.shuffle.service.enabled true\n" : "");
      Files.writeString(conf.resolve("spark-defaults.conf"), text);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write spark-defaults.conf in " + runDir, e);
    }
  }

  private void startDaemons(String workerMemory) throws IOException, InterruptedException {
    Node ctl = testbed.control();
    processes.startMaster(
        testbed.launchPrefix(ctl), ctl.address(), MASTER_PORT, localDir(ctl), START_TIMEOUT);
    for (Node n : testbed.workers()) {
      processes.startWorker(
          n.name(),
          testbed.launchPrefix(n),
          n.address(),
          workerCores,
          workerMemory,
          runDir.resolve(n.name()).resolve("work"),
          localDir(n),
          masterUrl());
    }
    processes.awaitWorkers(START_TIMEOUT);
  }

  private Path localDir(Node node) {
    return runDir.resolve(node.name()).resolve("local");
  }

  /**
   * @return {@code spark://<control address>:7077}
   */
  public String masterUrl() {
    return "spark://" + testbed.control().address() + ":" + MASTER_PORT;
  }

  /**
   * @return cores each Worker offers
   */
  public int workerCores() {
    return workerCores;
  }

  /**
   * @return whether the Workers run Spark's external shuffle service
   */
  public boolean externalShuffleService() {
    return externalShuffleService;
  }

  /**
   * @return the testbed the cluster runs on
   */
  public Testbed testbed() {
    return testbed;
  }

  /**
   * @return the run folder (absolute)
   */
  public Path runDir() {
    return runDir;
  }

  /**
   * @return the shared secret the daemons require, or null without authentication
   */
  public String authSecret() {
    return authSecret;
  }

  /**
   * Starts a Java program on a host of the testbed (through its launch prefix) with Spark's
   * environment ({@code SPARK_HOME}, {@code SPARK_SCALA_VERSION}, {@code SPARK_LOCAL_IP}, the
   * host's local folder) and Spark's JVM module options; output goes to {@code
   * <runDir>/<name>.log}. {@link #close()} does not stop it.
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
    return processes.launchJava(
        name,
        testbed.launchPrefix(node),
        node.address(),
        jvmArgs,
        classPath,
        mainClass,
        args,
        localDir(node),
        null);
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
    return processes.launchJava(
        name,
        testbed.launchPrefix(node),
        node.address(),
        jvmArgs,
        sparkHome.classPath(),
        "org.apache.spark.deploy.SparkSubmit",
        submitArgs,
        localDir(node),
        stdout);
  }

  /**
   * Kills (SIGKILL, like a crash) the executor JVMs of the Worker on a host; the Master then asks
   * that Worker for a replacement executor.
   *
   * @param node a worker host
   * @return how many executor processes were killed
   * @throws IllegalArgumentException if no Worker runs there
   */
  public int killExecutors(Node node) {
    return processes.killExecutors(node.address());
  }

  /** Stops Workers (and their executors) and the Master: SIGTERM, SIGKILL after 5 s. Idempotent. */
  @Override
  public void close() {
    stopAll();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException | IllegalArgumentException ignored) {
      // shutting down already
    }
  }

  private void stopAll() {
    processes.close();
  }
}
