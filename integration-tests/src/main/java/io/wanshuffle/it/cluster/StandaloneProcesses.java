package io.wanshuffle.it.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The processes of one Spark standalone deployment, started as children of this JVM from a {@link
 * SparkHome}: a Master, Workers and, on request, other Java programs (drivers). The one launcher
 * behind {@link LoopbackCluster} (loopback aliases) and the testbed's {@code SparkStandalone}
 * (network namespaces); what differs between them is only the command prefix that runs a program on
 * a host ({@code ip netns exec <ns>}, or nothing) and the address each process binds to.
 *
 * <p>Every JVM gets Spark's environment ({@code SPARK_HOME}, {@code SPARK_SCALA_VERSION}, {@code
 * SPARK_LOCAL_IP} and {@code SPARK_LOCAL_HOSTNAME} = its address, {@code SPARK_CONF_DIR} = {@code
 * <runDir>/conf}, optionally {@code SPARK_LOCAL_DIRS}), Spark's JVM module options and the extra
 * JVM options given to {@link #open}; its output goes to {@code <runDir>/<name>.log} ({@code
 * master.log}, {@code worker-<name>.log}, ...).
 *
 * <p>{@link #close()} kills the Master and the Workers with their descendants (executors). Drivers
 * started with {@link #launchJava} are the caller's to stop. Nothing here registers a shutdown
 * hook: the owner does, so that it can tear down its other resources in the same place.
 */
public final class StandaloneProcesses implements AutoCloseable {
  private static final String PID_FILE = "daemons.pid";
  private static final Pattern MASTER_URL =
      Pattern.compile("Starting Spark master at (spark://\\S+)");
  private static final Pattern LEADER = Pattern.compile("I have been elected leader");
  private static final Pattern REGISTERED = Pattern.compile("Successfully registered with master");
  private static final Duration KILL_GRACE = Duration.ofSeconds(5);

  private final SparkHome sparkHome;
  private final Path runDir;
  private final String daemonHeap;
  private final List<String> jvmOptions;
  private final boolean recordPids;
  private final List<Daemon> daemons = new ArrayList<>();
  private final Map<String, Daemon> workers = new LinkedHashMap<>();
  private boolean closed;

  private StandaloneProcesses(
      SparkHome sparkHome,
      Path runDir,
      String daemonHeap,
      List<String> jvmOptions,
      boolean recordPids) {
    this.sparkHome = sparkHome;
    this.runDir = runDir.toAbsolutePath();
    this.daemonHeap = daemonHeap;
    this.jvmOptions = List.copyOf(jvmOptions);
    this.recordPids = recordPids;
  }

  /**
   * A deployment with nothing started yet (no I/O).
   *
   * @param sparkHome Spark home whose {@code jars/} is the Master's and Workers' class path
   * @param runDir folder for the logs and {@code conf/} (created on the first start)
   * @param daemonHeap maximum heap of the Master and the Workers (JVM size syntax, e.g. {@code
   *     256m})
   * @param jvmOptions extra JVM options for every JVM started (daemons and drivers)
   * @param recordPids if true, each daemon's PID and start time go to {@code <runDir>/daemons.pid}
   *     (removed by {@link #close()}), so that {@link #reapLeftovers(Path)} can kill the daemons of
   *     a JVM that died without closing
   * @return the deployment
   */
  public static StandaloneProcesses open(
      SparkHome sparkHome,
      Path runDir,
      String daemonHeap,
      List<String> jvmOptions,
      boolean recordPids) {
    return new StandaloneProcesses(sparkHome, runDir, daemonHeap, jvmOptions, recordPids);
  }

  /**
   * Starts the Master ({@code --webui-port 0}) and waits until it is the leader.
   *
   * @param prefix command prefix running a program on the Master's host (empty for none)
   * @param address address the Master binds to
   * @param port RPC port, 0 to let the Master choose
   * @param localDir {@code SPARK_LOCAL_DIRS} of the Master (created), or null to leave it unset
   * @param timeout how long to wait for the Master to log its URL and its election
   * @return the Master URL as the Master logged it, {@code spark://<address>:<port>}
   * @throws IllegalStateException if the Master exits or does not become leader in time (the
   *     message ends with the last lines of {@code master.log})
   * @throws IOException if the run folder cannot be written or the JVM cannot be started
   * @throws InterruptedException if interrupted while waiting
   */
  public String startMaster(
      List<String> prefix, String address, int port, Path localDir, Duration timeout)
      throws IOException, InterruptedException {
    Daemon master =
        launchDaemon(
            "master",
            prefix,
            address,
            "org.apache.spark.deploy.master.Master",
            List.of("--host", address, "--port", Integer.toString(port), "--webui-port", "0"),
            localDir);
    String url = master.awaitLog(MASTER_URL, timeout);
    master.awaitLog(LEADER, timeout);
    return url;
  }

  /**
   * Starts a Worker ({@code --port 0 --webui-port 0}) without waiting for it; see {@link
   * #awaitWorkers(Duration)}. Its log is {@code <runDir>/worker-<name>.log}.
   *
   * @param name the Worker's name (log file name, errors)
   * @param prefix command prefix running a program on the Worker's host (empty for none)
   * @param address address the Worker binds to; one Worker per address
   * @param cores cores the Worker offers
   * @param memory memory the Worker offers (Spark size syntax, e.g. {@code 1g})
   * @param workDir the Worker's work folder (created): executor logs go below it
   * @param localDir {@code SPARK_LOCAL_DIRS} of the Worker and its executors (created)
   * @param masterUrl URL returned by {@link #startMaster}
   * @throws IllegalArgumentException if a Worker already runs on {@code address}
   * @throws IOException if a folder cannot be created or the JVM cannot be started
   */
  public void startWorker(
      String name,
      List<String> prefix,
      String address,
      int cores,
      String memory,
      Path workDir,
      Path localDir,
      String masterUrl)
      throws IOException {
    if (workers.containsKey(address)) {
      throw new IllegalArgumentException("a Worker already runs on " + address);
    }
    Files.createDirectories(workDir);
    Daemon w =
        launchDaemon(
            "worker-" + name,
            prefix,
            address,
            "org.apache.spark.deploy.worker.Worker",
            List.of(
                "--host",
                address,
                "--port",
                "0",
                "--webui-port",
                "0",
                "--cores",
                Integer.toString(cores),
                "--memory",
                memory,
                "--work-dir",
                workDir.toString(),
                masterUrl),
            localDir);
    workers.put(address, w);
  }

  /**
   * Waits until every Worker started so far has registered with the Master.
   *
   * @param timeout how long to wait for each Worker
   * @throws IllegalStateException if a Worker exits or does not register in time (the message names
   *     it and ends with the last lines of its log)
   * @throws InterruptedException if interrupted while waiting
   */
  public void awaitWorkers(Duration timeout) throws InterruptedException {
    for (Daemon w : workers.values()) {
      w.awaitLog(REGISTERED, timeout);
    }
  }

  /**
   * Starts a Java program (a driver) on a host with Spark's environment and JVM options, output to
   * {@code <runDir>/<name>.log} (stdout to its own file if asked). It is not a daemon: {@link
   * #close()} does not stop it.
   *
   * @param name log name
   * @param prefix command prefix running a program on the host (empty for none)
   * @param address the host's address ({@code SPARK_LOCAL_IP})
   * @param jvmArgs JVM options of this program (heap, ...)
   * @param classPath its class path
   * @param mainClass main class
   * @param args program arguments
   * @param localDir {@code SPARK_LOCAL_DIRS} (created), or null to leave it unset
   * @param stdout file for the program's stdout alone (its stderr, where Spark logs, goes to the
   *     log); null: both to the log
   * @return the process; behind {@code ip netns exec} its PID is still the JVM's (exec replaces
   *     itself)
   * @throws UncheckedIOException if a folder cannot be created or the program cannot be started
   */
  public Process launchJava(
      String name,
      List<String> prefix,
      String address,
      List<String> jvmArgs,
      String classPath,
      String mainClass,
      List<String> args,
      Path localDir,
      Path stdout) {
    try {
      return Daemon.startJava(
          prefix,
          jvmArgs(jvmArgs),
          classPath,
          mainClass,
          args,
          env(address, localDir),
          log(name),
          stdout);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot start " + name + " on " + address + ": " + e.getMessage(), e);
    }
  }

  private Daemon launchDaemon(
      String name,
      List<String> prefix,
      String address,
      String mainClass,
      List<String> args,
      Path localDir)
      throws IOException {
    Daemon d =
        Daemon.start(
            name,
            prefix,
            jvmArgs(List.of("-Xmx" + daemonHeap)),
            sparkHome.classPath(),
            mainClass,
            args,
            env(address, localDir),
            log(name));
    daemons.add(d);
    if (recordPids) {
      ProcessHandle h = d.handle();
      long start = h.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
      Files.writeString(
          runDir.resolve(PID_FILE),
          h.pid() + " " + start + "\n",
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    }
    return d;
  }

  private List<String> jvmArgs(List<String> own) {
    List<String> jvm = new ArrayList<>(own);
    jvm.addAll(jvmOptions);
    jvm.addAll(SparkHome.javaModuleOptions());
    return jvm;
  }

  private Map<String, String> env(String address, Path localDir) throws IOException {
    Path conf = Files.createDirectories(runDir.resolve("conf"));
    Map<String, String> env = new HashMap<>();
    env.put("SPARK_HOME", sparkHome.dir().toString());
    env.put("SPARK_SCALA_VERSION", SparkHome.SCALA_VERSION);
    env.put("SPARK_LOCAL_IP", address);
    env.put("SPARK_LOCAL_HOSTNAME", address);
    env.put("SPARK_CONF_DIR", conf.toString());
    if (localDir != null) {
      env.put("SPARK_LOCAL_DIRS", Files.createDirectories(localDir).toString());
    }
    return env;
  }

  private Path log(String name) {
    return runDir.resolve(name + ".log");
  }

  /**
   * Kills (SIGKILL, like a crash) the executor JVMs that the Worker on {@code address} runs; the
   * Master then asks that Worker for a replacement executor.
   *
   * @param address a Worker's address
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
   * @return the live daemon processes and their descendants (executors), for leak checks
   */
  List<ProcessHandle> processes() {
    return tree().stream().filter(ProcessHandle::isAlive).toList();
  }

  private List<ProcessHandle> tree() {
    List<ProcessHandle> all = new ArrayList<>();
    for (Daemon d : daemons) {
      d.handle().descendants().forEach(all::add);
      all.add(d.handle());
    }
    return all;
  }

  /**
   * Kills the Workers (and their executors) and the Master: SIGTERM, then SIGKILL to whatever is
   * alive after 5 s; removes the PID record. Idempotent. Logs stay in the run folder.
   *
   * @throws UncheckedIOException if the PID record cannot be removed (the processes are gone)
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    Daemon.killAll(tree(), KILL_GRACE);
    if (recordPids) {
      try {
        Files.deleteIfExists(runDir.resolve(PID_FILE));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * Kills the daemons (and their descendants) recorded in {@code <runRoot>/<any>/daemons.pid} by
   * deployments whose JVM died without closing (SIGKILL), and removes those records. A PID counts
   * only if its process still has the recorded start time, so reused PIDs are left alone.
   *
   * @param runRoot folder whose sub-folders are run folders
   * @throws IOException if the folder cannot be listed or a record read or removed
   */
  static void reapLeftovers(Path runRoot) throws IOException {
    try (Stream<Path> dirs = Files.list(runRoot)) {
      for (Path pidFile : dirs.map(d -> d.resolve(PID_FILE)).filter(Files::exists).toList()) {
        List<ProcessHandle> stale = new ArrayList<>();
        for (String line : Files.readAllLines(pidFile)) {
          String[] f = line.trim().split(" ");
          if (f.length != 2) {
            continue;
          }
          Optional<ProcessHandle> h = ProcessHandle.of(Long.parseLong(f[0]));
          long start = Long.parseLong(f[1]);
          if (h.isPresent()
              && h.get().info().startInstant().map(Instant::toEpochMilli).orElse(-1L) == start) {
            h.get().descendants().forEach(stale::add);
            stale.add(h.get());
          }
        }
        Daemon.killAll(stale, KILL_GRACE);
        Files.deleteIfExists(pidFile);
      }
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
