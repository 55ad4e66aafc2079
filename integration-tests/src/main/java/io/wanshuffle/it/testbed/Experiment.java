package io.wanshuffle.it.testbed;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.wanshuffle.it.cluster.AppJars;
import io.wanshuffle.it.cluster.StandaloneProcesses;
import io.wanshuffle.it.job.DriverMain;
import io.wanshuffle.it.job.JobRequest;
import io.wanshuffle.it.job.JobResult;
import io.wanshuffle.it.net.BackboneMeter;
import io.wanshuffle.it.net.BackboneTrace;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.TcpStateSampler;
import io.wanshuffle.it.net.TcpTrace;
import io.wanshuffle.it.net.Testbed;
import io.wanshuffle.it.net.TestbedSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.commons.io.FileUtils;

/**
 * A testbed with Spark standalone on it, running driver programs ({@link DriverMain}) on the
 * control host and measuring the backbone around each run. The unit the demo, the end-to-end
 * benchmark and the integration tests share.
 */
public final class Experiment implements AutoCloseable {
  /** Shuffle manager class of the plugin. */
  public static final String WAN_SHUFFLE_MANAGER = "io.wanshuffle.spark.WanShuffleManager";

  /** The plugin's capture listener (transfer matrix, plans, steps, flow log). */
  public static final String CAPTURE_LISTENER = "io.wanshuffle.spark.capture.CaptureListener";

  /** The plugin's capture folder key. */
  public static final String CAPTURE_DIR = "spark.wanshuffle.capture.dir";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Testbed testbed;
  private final SparkStandalone spark;
  private final Path runDir;
  private final Path topology;
  private final List<String> sparkJars;
  private int seq;
  private boolean sampleTcp;

  private Experiment(Testbed testbed, SparkStandalone spark, Path runDir) {
    this.testbed = testbed;
    this.spark = spark;
    this.runDir = runDir;
    this.topology = testbed.writeTopologyTable(runDir.resolve("topology.table"));
    this.sparkJars = AppJars.classPathJars(runDir);
  }

  /**
   * Builds the testbed (variant from {@code -Dwanshuffle.testbed}), starts Spark on it with {@link
   * StandaloneOptions#defaults()}.
   *
   * @param spec testbed sizes and rates
   * @param runDir folder for logs and results (created)
   * @return the experiment; close it to tear everything down
   * @throws io.wanshuffle.it.net.TestbedUnavailableException when the shaped testbed cannot be
   *     built here
   */
  public static Experiment start(TestbedSpec spec, Path runDir) {
    return start(spec, runDir, StandaloneOptions.defaults());
  }

  /**
   * Builds the testbed (variant from {@code -Dwanshuffle.testbed}), starts Spark on it ({@link
   * SparkStandalone#start(Testbed, Path, StandaloneOptions)}).
   *
   * @param spec testbed sizes and rates
   * @param runDir folder for logs and results (created)
   * @param options how Spark runs
   * @return the experiment; close it to tear everything down
   * @throws io.wanshuffle.it.net.TestbedUnavailableException when the shaped testbed cannot be
   *     built here
   * @throws IllegalArgumentException if {@code options.workerCores() < 1} (the testbed is closed
   *     again)
   */
  public static Experiment start(TestbedSpec spec, Path runDir, StandaloneOptions options) {
    Path dir = runDir.toAbsolutePath();
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
    Testbed t = Testbed.open(spec);
    try {
      SparkStandalone s = SparkStandalone.start(t, dir.resolve("spark"), options);
      return new Experiment(t, s, dir);
    } catch (RuntimeException e) {
      t.close();
      throw e;
    }
  }

  /**
   * @return the testbed
   */
  public Testbed testbed() {
    return testbed;
  }

  /**
   * @return the Spark cluster
   */
  public SparkStandalone spark() {
    return spark;
  }

  /**
   * @return the topology table the plugin reads (Hadoop TableMapping format)
   */
  public Path topologyTable() {
    return topology;
  }

  /**
   * The Spark settings every run of {@link #run} gets: master, driver address, one executor per
   * Worker with the Worker's cores, the job jars ({@code spark.jars}), the topology table, UI off;
   * authentication and the external shuffle service when the cluster runs with them.
   *
   * @param executorMemory executor memory (Spark size)
   * @return a new mutable map
   */
  public Map<String, String> baseConf(String executorMemory) {
    Map<String, String> c = clusterConf(executorMemory);
    c.put("spark.jars", String.join(",", sparkJars));
    return c;
  }

  /**
   * {@link #baseConf(String)} without the job jars: what any application needs to run on this
   * cluster (an application submitted with {@link #submit} brings its own jar).
   *
   * @param executorMemory executor memory (Spark size)
   * @return a new mutable map
   */
  public Map<String, String> clusterConf(String executorMemory) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("spark.master", spark.masterUrl());
    c.put("spark.driver.host", testbed.control().address());
    c.put("spark.driver.bindAddress", testbed.control().address());
    c.put("spark.executor.cores", Integer.toString(spark.workerCores()));
    c.put("spark.cores.max", Integer.toString(testbed.workers().size() * spark.workerCores()));
    c.put("spark.executor.memory", executorMemory);
    c.put("spark.ui.enabled", "false");
    c.put("spark.hadoop.net.topology.table.file.name", topology.toString());
    c.put(
        "spark.hadoop.net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.TableMapping");
    if (spark.authSecret() != null) {
      c.put("spark.authenticate", "true");
      c.put("spark.authenticate.secret", spark.authSecret());
    }
    if (spark.externalShuffleService()) {
      c.put("spark.shuffle.service.enabled", "true");
    }
    return c;
  }

  /**
   * The settings that turn wan-shuffle on, with the testbed's rates. The plugin reaches the
   * executors only through {@code spark.jars} of {@link #baseConf(String)}, as a user ships it with
   * {@code --jars}: nothing is put on the executors' own class path.
   *
   * @param algorithm {@code spark.wanshuffle.algorithm} (auto, oggp, ...)
   * @return a new mutable map to add to {@link #baseConf(String)}
   */
  public Map<String, String> wanShuffleConf(String algorithm) {
    return wanShuffleConfOf(testbed.spec(), algorithm);
  }

  /**
   * Checks the settings of a wan-shuffle run on a testbed of {@code spec} as the plugin checks them
   * at start-up, so that a command can refuse a wrong value before its testbed starts rather than
   * fail every wan-shuffle run.
   *
   * @param spec the testbed's description (its rates are the run's)
   * @param algorithm wan-shuffle algorithm name
   * @param extra the user's settings, in the order they override each other (e.g. {@code --conf},
   *     then {@code --plugin-conf})
   * @return the plugin's reading of them
   * @throws IllegalArgumentException ({@code ConfigValueException}) naming the key and value the
   *     plugin refuses
   */
  @SafeVarargs
  public static io.wanshuffle.spark.config.WanShuffleConf checkWanShuffleConf(
      TestbedSpec spec, String algorithm, Map<String, String>... extra) {
    org.apache.spark.SparkConf c = new org.apache.spark.SparkConf(false);
    wanShuffleConfOf(spec, algorithm).forEach(c::set);
    for (Map<String, String> e : extra) {
      e.forEach(c::set);
    }
    return io.wanshuffle.spark.config.WanShuffleConf.from(c);
  }

  private static Map<String, String> wanShuffleConfOf(TestbedSpec spec, String algorithm) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("spark.wanshuffle.listeners", CAPTURE_LISTENER);
    c.put("spark.shuffle.manager", WAN_SHUFFLE_MANAGER);
    c.put("spark.wanshuffle.algorithm", algorithm);
    c.put("spark.wanshuffle.backbone.rate", spec.backboneBitsPerSecond() + "bit");
    c.put("spark.wanshuffle.nic.rate", spec.nicBitsPerSecond() + "bit");
    return c;
  }

  /**
   * Turns sampling of the cross-cluster TCP connections' state ({@link TcpStateSampler}, every 100
   * ms) around each later {@link #run} on or off (off by default: three {@code ss} processes per
   * sampling round share the machine's cores with the hosts).
   *
   * @param on whether to sample
   * @throws IllegalArgumentException if {@code on} and the testbed is not shaped
   */
  public void sampleTcp(boolean on) {
    if (on && !testbed.shaped()) {
      throw new IllegalArgumentException("TCP state sampling needs the network-namespace testbed");
    }
    this.sampleTcp = on;
  }

  /**
   * The exception that ended a failed driver, as the JVM printed it ({@code Exception in thread
   * "main" ...}), without the prefix; so a failed run says why next to its exit status instead of
   * only naming its log.
   *
   * @param driverLog the driver's log (stdout and stderr of spark-submit)
   * @return the last such line's exception and message, at most 300 characters; empty when there is
   *     none or the log cannot be read
   */
  static java.util.Optional<String> mainThreadException(Path driverLog) {
    String prefix = "Exception in thread \"main\" ";
    try (java.util.stream.Stream<String> lines =
        Files.lines(driverLog, java.nio.charset.StandardCharsets.UTF_8)) {
      return lines
          .filter(l -> l.startsWith(prefix))
          .reduce((a, b) -> b)
          .map(l -> l.substring(prefix.length()).strip())
          .map(l -> l.length() <= 300 ? l : l.substring(0, 297) + "...");
    } catch (IOException | java.io.UncheckedIOException e) {
      return java.util.Optional.empty();
    }
  }

  /**
   * What one driver run produced, with the backbone measured around it.
   *
   * @param name run name
   * @param result the driver's result
   * @param backbone the backbone recording over the whole driver run (null on the loopback testbed)
   * @param driverLog the driver's log file
   * @param captureDir the plugin's capture folder of the run (stage captures, flow log), or null
   *     without the plugin's capture listener
   * @param tcp the cross-cluster TCP connections sampled over the whole driver run, or null when
   *     {@link #sampleTcp(boolean)} is off
   */
  public record Measured(
      String name,
      JobResult result,
      BackboneTrace backbone,
      Path driverLog,
      Path captureDir,
      TcpTrace tcp) {}

  /**
   * Runs a driver program on the control host and waits for it.
   *
   * @param name run name (log and file names)
   * @param request the job (its {@code sparkConf} should start from {@link #baseConf(String)})
   * @param killDelayMs when {@code request.killExecutorOnB() > 0}: kill the executor of the first B
   *     host this long after the first reduce task started
   * @return the measurement
   * @throws IllegalStateException if the driver fails or runs longer than 30 min (the message
   *     quotes its log)
   */
  public Measured run(String name, JobRequest request, long killDelayMs) {
    String tag = nextTag(name);
    Path req = runDir.resolve(tag + ".request.json");
    Path res = runDir.resolve(tag + ".result.json");
    Path log = runDir.resolve("spark").resolve("driver-" + tag + ".log");
    Path capture = null;
    if (capturing(request.sparkConf())) {
      capture = runDir.resolve("capture-" + tag);
      Map<String, String> c = new LinkedHashMap<>(request.sparkConf());
      c.put(CAPTURE_DIR, capture.toString());
      request =
          new JobRequest(
              request.appName(),
              c,
              request.aHosts(),
              request.bHosts(),
              request.job(),
              request.tpchScale(),
              request.mapPartitions(),
              request.reducePartitions(),
              request.matrixBytes(),
              request.recordBytes(),
              request.runs(),
              request.warmup(),
              request.killExecutorOnB(),
              request.fullWarmup());
    }
    try {
      if (capture != null) {
        // a re-run replaces the previous run's capture: the demo and the benchmark read every
        // application folder
        FileUtils.deleteDirectory(capture.toFile());
      }
      JSON.writeValue(req.toFile(), request);
      Files.deleteIfExists(res);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Recorders rec = new Recorders();
    Process driver =
        spark.launchJava(
            testbed.control(),
            "driver-" + tag,
            List.of("-Xmx768m"),
            System.getProperty("java.class.path"),
            DriverMain.class.getName(),
            List.of(req.toString(), res.toString()));
    try {
      boolean killed = request.killExecutorOnB() == 0;
      long deadline = System.currentTimeMillis() + TimeUnit.MINUTES.toMillis(30);
      while (driver.isAlive()) {
        if (System.currentTimeMillis() > deadline) {
          driver.destroyForcibly();
          throw new IllegalStateException("driver " + tag + " ran longer than 30 min; see " + log);
        }
        if (!killed
            && Files.exists(log)
            && Files.readString(log).contains(DriverMain.REDUCE_STARTED)) {
          Thread.sleep(killDelayMs);
          Node victim = testbed.clusterB().get(0);
          int n = spark.killExecutors(victim);
          Files.writeString(
              runDir.resolve(tag + ".fault.txt"),
              "killed "
                  + n
                  + " executor(s) on "
                  + victim.name()
                  + " ("
                  + victim.address()
                  + ") at "
                  + System.currentTimeMillis()
                  + "\n");
          killed = true;
        }
        driver.waitFor(200, TimeUnit.MILLISECONDS);
      }
      rec.finish(tag);
      if (driver.exitValue() != 0 || !Files.exists(res)) {
        throw new IllegalStateException(
            "driver "
                + tag
                + " failed (exit "
                + driver.exitValue()
                + "); end of "
                + log
                + ":\n"
                + StandaloneProcesses.tail(Files.readString(log)));
      }
      return new Measured(
          name, JSON.readValue(res.toFile(), JobResult.class), rec.backbone, log, capture, rec.tcp);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      driver.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } finally {
      rec.abandon();
      if (driver.isAlive()) {
        driver.destroyForcibly();
      }
    }
  }

  /**
   * An application to run with spark-submit ({@link #submit}).
   *
   * @param jar the application's jar (spark-submit's primary resource)
   * @param mainClass its main class, or null for the jar manifest's {@code Main-Class}
   * @param args its arguments
   * @param conf its Spark configuration (spark-submit's {@code --conf}), normally {@link
   *     #clusterConf(String)} plus the application's own settings (and {@link
   *     #wanShuffleConf(String)} for the plugin)
   * @param jars extra jars for the driver and the executors (spark-submit's {@code --jars}), e.g.
   *     the plugin's
   * @param driverMemory the driver JVM's heap (JVM size syntax, e.g. {@code 1g})
   */
  public record Submission(
      Path jar,
      String mainClass,
      List<String> args,
      Map<String, String> conf,
      List<Path> jars,
      String driverMemory) {
    /** Copies the lists and the map. */
    public Submission {
      args = List.copyOf(args);
      conf = Map.copyOf(conf);
      jars = List.copyOf(jars);
    }
  }

  /**
   * What one spark-submit run produced, with the backbone measured around it.
   *
   * @param name run name
   * @param failure null when spark-submit exited with 0, else why not ({@code exit 1}, a timeout)
   * @param startMs when spark-submit started, epoch ms
   * @param endMs when it ended, epoch ms
   * @param stdout the application's standard output
   * @param driverLog Spark's log of the driver (the driver JVM's stderr)
   * @param eventLog the application's Spark event log ({@code spark.eventLog.*}: a file, or a
   *     rolling log's folder if the submission's settings asked for one; the first application's
   *     when the driver ran several), or null if it wrote none
   * @param captureDir the plugin's capture folder, or null without the plugin's capture listener
   * @param backbone the backbone recording over the run (null on the loopback testbed)
   * @param tcp the cross-cluster TCP connections sampled over the run, or null when {@link
   *     #sampleTcp} is off
   */
  public record Submitted(
      String name,
      String failure,
      long startMs,
      long endMs,
      Path stdout,
      Path driverLog,
      Path eventLog,
      Path captureDir,
      BackboneTrace backbone,
      TcpTrace tcp) {}

  /**
   * Runs an application with spark-submit on the control host (client mode: the driver runs there),
   * waits for it and measures the backbone around it. Its Spark event log goes to {@code
   * <runDir>/<NN-name>/events} (the event log settings are set last, over the submission's), and
   * with the plugin's capture listener the capture to {@code <runDir>/<NN-name>/capture}.
   *
   * @param name run name (folder and log names)
   * @param app the application
   * @param timeout longest run; past it the driver is killed and the run reported as failed
   * @return the measurement (a failed application is a result, not an exception)
   * @throws UncheckedIOException if the run folder cannot be written or spark-submit cannot be
   *     started
   * @throws IllegalStateException if interrupted (the driver is killed)
   */
  public Submitted submit(String name, Submission app, java.time.Duration timeout) {
    String tag = nextTag(name);
    Path dir = runDir.resolve(tag);
    Path events = dir.resolve("events");
    Path stdout = dir.resolve("stdout.txt");
    Path log = runDir.resolve("spark").resolve("driver-" + tag + ".log");
    Map<String, String> conf = new LinkedHashMap<>(app.conf());
    Path capture = null;
    if (capturing(conf)) {
      capture = dir.resolve("capture");
      conf.put(CAPTURE_DIR, capture.toString());
    }
    conf.put("spark.eventLog.enabled", "true");
    conf.put("spark.eventLog.dir", events.toUri().toString());
    conf.put("spark.eventLog.compress", "false");
    conf.put("spark.eventLog.rolling.enabled", "false");
    List<String> args =
        new java.util.ArrayList<>(
            List.of("--master", spark.masterUrl(), "--deploy-mode", "client"));
    if (app.mainClass() != null) {
      args.addAll(List.of("--class", app.mainClass()));
    }
    if (!app.jars().isEmpty()) {
      args.addAll(
          List.of("--jars", String.join(",", app.jars().stream().map(Path::toString).toList())));
    }
    conf.forEach((k, v) -> args.addAll(List.of("--conf", k + "=" + v)));
    args.add(app.jar().toString());
    args.addAll(app.args());
    try {
      FileUtils.deleteDirectory(dir.toFile());
      Files.createDirectories(events);
      Files.writeString(dir.resolve("spark-submit.args"), String.join("\n", args) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare " + dir, e);
    }
    Recorders rec = new Recorders();
    long start = System.currentTimeMillis();
    Process driver =
        spark.sparkSubmit(
            testbed.control(), "driver-" + tag, List.of("-Xmx" + app.driverMemory()), args, stdout);
    try {
      String failure = null;
      if (!driver.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        driver.destroyForcibly().waitFor();
        failure = "ran longer than " + timeout.toSeconds() + " s (killed)";
      } else if (driver.exitValue() != 0) {
        failure =
            "exit " + driver.exitValue() + mainThreadException(log).map(x -> ": " + x).orElse("");
      }
      long end = System.currentTimeMillis();
      rec.finish(tag);
      return new Submitted(
          name,
          failure,
          start,
          end,
          stdout,
          log,
          eventLogIn(events),
          capture,
          rec.backbone,
          rec.tcp);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } finally {
      rec.abandon();
      if (driver.isAlive()) {
        driver.destroyForcibly();
      }
    }
  }

  /**
   * @return {@code NN-name}: the run's number in this experiment and its name, safe for file names
   */
  private String nextTag(String name) {
    return String.format("%02d-%s", ++seq, name.replaceAll("[^A-Za-z0-9_.-]", "_"));
  }

  /**
   * @return whether these settings list the plugin's capture listener (the run then gets a capture
   *     folder)
   */
  private static boolean capturing(Map<String, String> conf) {
    return conf.getOrDefault("spark.wanshuffle.listeners", "").contains(CAPTURE_LISTENER);
  }

  private static Path eventLogIn(Path events) throws IOException {
    try (java.util.stream.Stream<Path> files = Files.list(events)) {
      // a file, or a rolling event log's folder; a driver running several SparkContexts one after
      // another writes
      // one each: the first application's (Spark's application ids sort by start time)
      return files.sorted().findFirst().orElse(null);
    }
  }

  /** The backbone recording and the TCP sampling around one driver run. */
  private final class Recorders {
    private BackboneMeter.Recording backboneRec =
        testbed.backbone().map(m -> m.record(200)).orElse(null);
    private TcpStateSampler.Recording tcpRec =
        sampleTcp ? TcpStateSampler.record(testbed, 100) : null;
    BackboneTrace backbone;
    TcpTrace tcp;

    /**
     * Stops both and keeps their data in {@code <runDir>/<tag>.backbone.json} and {@code .tcp.csv}.
     */
    void finish(String tag) throws IOException {
      if (backboneRec != null) {
        backbone = backboneRec.stop();
        backboneRec = null;
        // kept for later analysis (retransmissions, drops and rates over the whole driver run)
        JSON.writeValue(
            runDir.resolve(tag + ".backbone.json").toFile(),
            Map.of(
                "start",
                backbone.start(),
                "end",
                backbone.end(),
                "rateBitsPerSecond",
                backbone.rateBitsPerSecond(),
                "samples",
                backbone.samples()));
      }
      if (tcpRec != null) {
        tcp = tcpRec.stop();
        tcpRec = null;
        tcp.writeCsv(runDir.resolve(tag + ".tcp.csv"));
      }
    }

    /** Stops whatever {@link #finish} did not (a failed run). */
    void abandon() {
      if (backboneRec != null) {
        backboneRec.stop();
      }
      if (tcpRec != null) {
        tcpRec.stop();
      }
    }
  }

  /** Stops Spark, then tears the testbed down. */
  @Override
  public void close() {
    try {
      spark.close();
    } finally {
      testbed.close();
    }
  }
}
