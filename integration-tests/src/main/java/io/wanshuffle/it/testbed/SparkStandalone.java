package io.wanshuffle.it.testbed;

import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.Testbed;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.spark.launcher.JavaModuleOptions;

/**
 * Spark standalone on a {@link Testbed}: the Master on the control host, one Worker per worker host, each JVM
 * started through the testbed's launch prefix ({@code ip netns exec <ns>} on the shaped testbed) and bound to
 * the host's address; and the driver, started the same way on the control host. Spark home is a folder of
 * links to the runtime jars this JVM already runs with (spark-core, spark-sql and their dependencies from
 * Maven), so nothing is downloaded or copied.
 *
 * <p>Facts from the testbed prototype: a Worker needs {@code SPARK_SCALA_VERSION=2.13}; every JVM started by
 * hand needs Spark's {@code --add-opens} list ({@link JavaModuleOptions}).
 */
public final class SparkStandalone implements AutoCloseable {
  private static final long START_TIMEOUT_MS = 120_000;
  private static final int MASTER_PORT = 7077;

  private final Testbed testbed;
  private final Path runDir;
  private final Path sparkHome;
  private final String workerMemory;
  private final Map<String, Process> workers = new LinkedHashMap<>();
  private Process master;
  private final Thread hook = new Thread(this::stopAll, "spark-standalone-teardown");
  private volatile boolean closed;

  private final String authSecret;

  private SparkStandalone(Testbed testbed, Path runDir, String workerMemory, String authSecret) {
    this.testbed = testbed;
    this.runDir = runDir.toAbsolutePath();
    this.sparkHome = this.runDir.resolve("spark-home");
    this.workerMemory = workerMemory;
    this.authSecret = authSecret;
  }

  /**
   * Starts the Master and the Workers and waits until every Worker registered.
   *
   * @param testbed the hosts
   * @param runDir folder for logs, work folders, local folders and the Spark home links
   * @param workerMemory memory each Worker offers (Spark size, for example {@code 1g}); each offers 1 core
   * @return the running cluster (closed by {@link #close()} and by a shutdown hook)
   * @throws IllegalStateException if a daemon exits or does not come up within 120 s (the message quotes its
   *     log)
   */
  public static SparkStandalone start(Testbed testbed, Path runDir, String workerMemory) {
    return start(testbed, runDir, workerMemory, null);
  }

  /**
   * Like {@link #start(Testbed, Path, String)}, with Spark authentication on the Master and Workers
   * ({@code spark.authenticate=true} and the shared secret in {@code spark-defaults.conf}); applications must then
   * set the same secret.
   *
   * @param testbed the hosts
   * @param runDir run folder
   * @param workerMemory memory each Worker offers
   * @param authSecret shared secret, or null for no authentication
   * @return the running cluster
   */
  public static SparkStandalone start(Testbed testbed, Path runDir, String workerMemory, String authSecret) {
    SparkStandalone s = new SparkStandalone(testbed, runDir, workerMemory, authSecret);
    Runtime.getRuntime().addShutdownHook(s.hook);
    try {
      s.writeDefaults();
      s.linkSparkHome();
      s.startDaemons();
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
    return s;
  }

  /** @return {@code spark://<control address>:7077} */
  public String masterUrl() {
    return "spark://" + testbed.control().address() + ":" + MASTER_PORT;
  }

  /** @return the testbed the cluster runs on */
  public Testbed testbed() {
    return testbed;
  }

  /** @return the run folder */
  public Path runDir() {
    return runDir;
  }

  private void writeDefaults() {
    try {
      Path conf = runDir.resolve("conf");
      Files.createDirectories(conf);
      String text = authSecret == null ? ""
          : "spark.authenticate true\nspark.authenticate.secret " + authSecret + "\n";
      Files.writeString(conf.resolve("spark-defaults.conf"), text);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write spark-defaults.conf in " + runDir, e);
    }
  }

  /** @return the shared secret the daemons require, or null without authentication */
  public String authSecret() {
    return authSecret;
  }

  private void linkSparkHome() {
    Path jars = sparkHome.resolve("jars");
    try {
      Files.createDirectories(jars);
      for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
        Path p = Path.of(entry);
        if (!entry.endsWith(".jar") || isProjectJar(p) || !Files.isRegularFile(p)) {
          continue;
        }
        Path link = jars.resolve(p.getFileName());
        if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          Files.createSymbolicLink(link, p.toAbsolutePath());
        }
      }
      try (var s = Files.list(jars)) {
        if (s.noneMatch(f -> f.getFileName().toString().startsWith("spark-core_2.13"))) {
          throw new IllegalStateException("no spark-core_2.13 jar on this JVM's class path: run through ./wan-shuffle"
              + " or the integration-tests module so Spark's jars are on it");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot build the Spark home links in " + jars, e);
    }
  }

  /**
   * @param p a class path entry
   * @return true for a jar of this project's modules (installed under {@code io/wanshuffle/} or built in a
   *     module's {@code target/}): those go to executors with {@code spark.jars}, never into the Spark home
   */
  static boolean isProjectJar(Path p) {
    String name = p.getFileName().toString();
    return p.toString().contains("/io/wanshuffle/") || name.startsWith("wan-shuffle-")
        || name.startsWith("scheduler-core-");
  }

  private void startDaemons() {
    Node ctl = testbed.control();
    master = launch(ctl, "master", "org.apache.spark.deploy.master.Master", List.of("--host", ctl.address(),
        "--port", Integer.toString(MASTER_PORT), "--webui-port", "0"), "256m");
    awaitLog("master", "I have been elected leader");
    for (Node n : testbed.workers()) {
      Path work = runDir.resolve(n.name()).resolve("work");
      try {
        Files.createDirectories(work);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      workers.put(n.name(), launch(n, "worker-" + n.name(), "org.apache.spark.deploy.worker.Worker",
          List.of("--host", n.address(), "--cores", "1", "--memory", workerMemory, "--work-dir", work.toString(),
              "--webui-port", "0", masterUrl()), "256m"));
    }
    for (Node n : testbed.workers()) {
      awaitLog("worker-" + n.name(), "Successfully registered with master");
    }
  }

  /**
   * Starts a JVM on a host of the testbed with Spark's environment.
   *
   * @param node host to run on
   * @param name log name ({@code <runDir>/<name>.log})
   * @param mainClass main class
   * @param args program arguments
   * @param heap maximum heap (JVM size syntax)
   * @return the process
   */
  private Process launch(Node node, String name, String mainClass, List<String> args, String heap) {
    return launchJava(node, name, List.of("-Xmx" + heap), sparkHome.resolve("jars") + "/*", mainClass, args);
  }

  /**
   * Starts a Java program on a host of the testbed (through its launch prefix) with Spark's environment
   * ({@code SPARK_HOME}, {@code SPARK_SCALA_VERSION}, {@code SPARK_LOCAL_IP}, a local folder per host) and
   * Spark's JVM module options; output goes to {@code <runDir>/<name>.log}.
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
  public Process launchJava(Node node, String name, List<String> jvmArgs, String classPath, String mainClass,
      List<String> args) {
    List<String> cmd = new ArrayList<>(testbed.launchPrefix(node));
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.addAll(jvmArgs);
    cmd.addAll(List.of(JavaModuleOptions.defaultModuleOptionArray()));
    cmd.addAll(List.of("-Djava.awt.headless=true", "-cp", classPath, mainClass));
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd);
    Map<String, String> env = pb.environment();
    Path local = runDir.resolve(node.name()).resolve("local");
    try {
      Files.createDirectories(local);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    env.putAll(new HashMap<>(Map.of("SPARK_HOME", sparkHome.toString(), "SPARK_SCALA_VERSION", "2.13",
        "SPARK_LOCAL_IP", node.address(), "SPARK_LOCAL_HOSTNAME", node.address(), "SPARK_LOCAL_DIRS",
        local.toString(), "SPARK_CONF_DIR", runDir.resolve("conf").toString())));
    pb.redirectErrorStream(true).redirectOutput(runDir.resolve(name + ".log").toFile());
    pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    try {
      Files.createDirectories(runDir.resolve("conf"));
      return pb.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + " on " + node.name() + ": " + e.getMessage(), e);
    }
  }

  private void awaitLog(String name, String needle) {
    Path log = runDir.resolve(name + ".log");
    Process p = "master".equals(name) ? master : workers.get(name.substring("worker-".length()));
    long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
    while (System.currentTimeMillis() < deadline) {
      String text = read(log);
      if (text.contains(needle)) {
        return;
      }
      if (!p.isAlive()) {
        throw new IllegalStateException(name + " exited (code " + p.exitValue() + "); end of " + log + ":\n"
            + tail(text));
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + name, e);
      }
    }
    throw new IllegalStateException(name + " did not log '" + needle + "' within " + START_TIMEOUT_MS / 1000
        + " s; end of " + log + ":\n" + tail(read(log)));
  }

  private static String read(Path log) {
    try {
      return Files.exists(log) ? Files.readString(log) : "";
    } catch (IOException e) {
      return "";
    }
  }

  /** @return the last 20 lines of a log text */
  public static String tail(String text) {
    String[] lines = text.split("\n");
    return String.join("\n", java.util.Arrays.copyOfRange(lines, Math.max(0, lines.length - 20), lines.length));
  }

  /**
   * Kills (SIGKILL, like a crash) the executor JVMs of the Worker on a host; the Master then asks that Worker
   * for a replacement executor.
   *
   * @param node a worker host
   * @return how many executor processes were killed
   * @throws IllegalArgumentException if no Worker runs there
   */
  public int killExecutors(Node node) {
    Process w = workers.get(node.name());
    if (w == null) {
      throw new IllegalArgumentException("no Worker on " + node.name() + "; workers: " + workers.keySet());
    }
    List<ProcessHandle> execs = w.toHandle().descendants()
        .filter(p -> p.info().commandLine().orElse("").contains("CoarseGrainedExecutorBackend")).toList();
    execs.forEach(ProcessHandle::destroyForcibly);
    return execs.size();
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

  private synchronized void stopAll() {
    if (closed) {
      return;
    }
    closed = true;
    List<ProcessHandle> all = new ArrayList<>();
    for (Process p : workers.values()) {
      p.toHandle().descendants().forEach(all::add);
      all.add(p.toHandle());
    }
    if (master != null) {
      all.add(master.toHandle());
    }
    all.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    for (ProcessHandle h : all) {
      while (h.isAlive() && System.nanoTime() < deadline) {
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      if (h.isAlive()) {
        h.destroyForcibly();
      }
    }
  }
}
