package io.wanshuffle.it.experiment;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.wanshuffle.it.job.DriverMain;
import io.wanshuffle.it.job.JobRequest;
import io.wanshuffle.it.job.JobResult;
import io.wanshuffle.it.net.BackboneTrace;
import io.wanshuffle.it.net.LinkTrace;
import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.net.TcpStateSampler;
import io.wanshuffle.it.net.TcpTrace;
import io.wanshuffle.it.net.Testbed;
import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.it.spark.AppJars;
import io.wanshuffle.it.spark.ClusterOptions;
import io.wanshuffle.it.spark.SparkCluster;
import io.wanshuffle.it.spark.SparkHome;
import io.wanshuffle.spark.config.CaptureSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.commons.io.FileUtils;

/**
 * A testbed with Spark standalone on it ({@link SparkCluster}), running driver programs ({@link
 * DriverMain}, {@link #run}) and any application with spark-submit ({@link #submit}) on the control
 * host, each measured from outside Spark ({@link RunRecorder}). The unit the demo, the end-to-end
 * benchmark, {@code run-app} and the testbed's integration tests share.
 *
 * <p>Run folder: per driver run {@code NN-name.request.json}, {@code NN-name.result.json}, on the
 * shaped testbed {@code NN-name.backbone.json} and {@code NN-name.links.json}, with TCP sampling
 * {@code NN-name.tcp.csv}, with the plugin's capture listener {@code capture-NN-name/}; per
 * submission {@code NN-name/} ({@code stdout.txt}, {@code events/}, {@code capture/}, {@code
 * spark-submit.args}); the Spark cluster's folder {@code spark/} (daemon and driver logs, the
 * topology table, the Spark home's links).
 */
public final class Experiment implements AppRunner {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Longest a driver program may run. */
  private static final Duration DRIVER_TIMEOUT = Duration.ofMinutes(30);

  private final Testbed testbed;
  private final SparkCluster spark;
  private final Path runDir;
  private final List<String> sparkJars;
  private final String driverClassPath;

  /**
   * Whether the Spark creates its shuffle manager before it fetches {@code --files} and {@code
   * --jars} (Spark 3.x; 4.x fetches them first): the plugin jar then goes on the executors' class
   * path too.
   */
  private final boolean filesAfterShuffleManager;

  private int seq;
  private boolean sampleTcp;

  /**
   * @param testbed the running testbed
   * @param spark the Spark cluster on it
   * @param runDir the run folder
   * @param home another Spark line's home, or null for this JVM's Spark
   * @param pluginJar that line's plugin jar, replacing this JVM's in the jobs' jars (null: keep)
   */
  private Experiment(
      Testbed testbed, SparkCluster spark, Path runDir, SparkHome home, Path pluginJar) {
    this.testbed = testbed;
    this.spark = spark;
    this.runDir = runDir;
    this.filesAfterShuffleManager = home != null && home.sparkVersion().startsWith("3.");
    if (home == null) {
      this.sparkJars = AppJars.classPathJars(runDir);
      this.driverClassPath = System.getProperty("java.class.path");
    } else {
      List<String> jars = new ArrayList<>();
      for (String j : AppJars.classPathJars(runDir)) {
        boolean plugin = Path.of(j).getFileName().toString().startsWith("wan-shuffle-spark-");
        if (!plugin || pluginJar == null) {
          jars.add(j);
        }
      }
      if (pluginJar != null) {
        jars.add(pluginJar.toAbsolutePath().toString());
      }
      this.sparkJars = List.copyOf(jars);
      // the line's Spark, this project's jars, and what scheduler-core needs besides Spark
      List<String> cp = new ArrayList<>(List.of(home.classPath()));
      cp.addAll(jars);
      for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
        if (e.contains("/org/jgrapht/") || e.contains("/org/jheaps/")) {
          cp.add(e);
        }
      }
      this.driverClassPath = String.join(java.io.File.pathSeparator, cp);
    }
  }

  /**
   * Builds the testbed (variant from {@code -Dwanshuffle.testbed}), starts Spark on it with {@link
   * ClusterOptions#defaults()}.
   *
   * @param spec testbed sizes and rates
   * @param runDir folder for logs and results (created)
   * @return the experiment; close it to tear everything down
   * @throws io.wanshuffle.it.net.TestbedUnavailableException when the shaped testbed cannot be
   *     built here
   */
  public static Experiment start(TestbedSpec spec, Path runDir) {
    return start(spec, runDir, ClusterOptions.defaults());
  }

  /**
   * Builds the testbed (variant from {@code -Dwanshuffle.testbed}), starts Spark on it ({@link
   * SparkCluster#start}, run folder {@code <runDir>/spark}, Spark home of links to this JVM's class
   * path).
   *
   * @param spec testbed sizes and rates
   * @param runDir folder for logs and results (created)
   * @param options how Spark runs
   * @return the experiment; close it to tear everything down
   * @throws io.wanshuffle.it.net.TestbedUnavailableException when the shaped testbed cannot be
   *     built here
   * @throws IllegalStateException if Spark does not start (the testbed is closed again)
   */
  public static Experiment start(TestbedSpec spec, Path runDir, ClusterOptions options) {
    return start(spec, runDir, options, null);
  }

  /**
   * Builds the testbed (variant from {@code -Dwanshuffle.testbed}), starts Spark on it ({@link
   * SparkCluster#start}, run folder {@code <runDir>/spark}) from a given Spark home, e.g. another
   * Spark line's ({@link io.wanshuffle.it.spark.SparkLines#home}); driver programs ({@link #run})
   * run on it with this project's jars.
   *
   * @param spec testbed sizes and rates
   * @param runDir folder for logs and results (created)
   * @param options how Spark runs
   * @param home the Spark home, or null for links to this JVM's class path (Spark 4.1.3)
   * @return the experiment; close it to tear everything down
   * @throws io.wanshuffle.it.net.TestbedUnavailableException when the shaped testbed cannot be
   *     built here
   * @throws IllegalStateException if Spark does not start (the testbed is closed again)
   */
  public static Experiment start(
      TestbedSpec spec, Path runDir, ClusterOptions options, SparkHome home) {
    return start(spec, runDir, options, home, null);
  }

  /**
   * As {@link #start(TestbedSpec, Path, ClusterOptions, SparkHome)}, and driver programs ({@link
   * #run}) run on that home too: their class path is the home's jars, this project's jars (with
   * {@code pluginJar} instead of this JVM's plugin jar) and scheduler-core's libraries; the jobs'
   * {@code spark.jars} likewise.
   *
   * @param spec testbed sizes and rates
   * @param runDir folder for logs and results (created)
   * @param options how Spark runs
   * @param home the Spark home, or null for links to this JVM's class path (Spark 4.1.3)
   * @param pluginJar the plugin jar of the home's line (null: this JVM's)
   * @return the experiment; close it to tear everything down
   * @throws io.wanshuffle.it.net.TestbedUnavailableException when the shaped testbed cannot be
   *     built here
   * @throws IllegalStateException if Spark does not start (the testbed is closed again)
   */
  public static Experiment start(
      TestbedSpec spec, Path runDir, ClusterOptions options, SparkHome home, Path pluginJar) {
    Path dir = runDir.toAbsolutePath();
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
    Testbed t = Testbed.open(spec);
    try {
      Path sparkDir = dir.resolve("spark");
      SparkCluster s =
          SparkCluster.start(
              t,
              home != null ? home : SparkHome.linkClassPath(sparkDir.resolve("spark-home")),
              sparkDir,
              options);
      return new Experiment(t, s, dir, home, pluginJar);
    } catch (RuntimeException e) {
      t.close();
      throw e;
    }
  }

  /**
   * @return the testbed
   */
  @Override
  public Testbed testbed() {
    return testbed;
  }

  @Override
  public Path topologyConfig() {
    return spark.topologyConfig();
  }

  /**
   * @return the Spark cluster
   */
  public SparkCluster spark() {
    return spark;
  }

  /**
   * The Spark settings every run of {@link #run} gets: {@link #clusterConf(String)} and the job
   * jars ({@code spark.jars}: this project's jars and class folders on the class path, the plugin's
   * among them).
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
   * What any application needs to run on this cluster ({@link SparkCluster#conf(String)}); an
   * application submitted with {@link #submit} brings its own jar.
   *
   * @param executorMemory executor memory (Spark size)
   * @return a new mutable map
   */
  @Override
  public Map<String, String> clusterConf(String executorMemory) {
    return spark.conf(executorMemory);
  }

  /**
   * The settings that turn wan-shuffle on with this testbed's rates ({@link PluginSettings#of})
   * and, unless the variant is rack-blind, its topology file ({@link PluginSettings#topology}: the
   * cluster's {@code topology.table} and {@code topology.conf}, shipped as {@code --files} on every
   * Spark line: the plugin reads them at first use, after Spark 3.5 fetched them too).
   *
   * @param variant a wan-shuffle algorithm (auto, oggp, ...), or one with {@value
   *     PluginSettings#RACK_BLIND} for the run without the topology file
   * @return a new mutable map to add to {@link #baseConf(String)} ({@link PluginSettings#putAll}
   *     keeps the files it already ships)
   */
  @Override
  public Map<String, String> wanShuffleConf(String variant) {
    Map<String, String> c = PluginSettings.of(testbed.spec(), variant);
    if (PluginSettings.topologyAware(variant)) {
      c.putAll(PluginSettings.topology(spark.topologyTable(), spark.topologyConfig()));
    }
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
   * @param links every link's counters over the whole driver run (null on the loopback testbed)
   */
  public record Measured(
      String name,
      JobResult result,
      BackboneTrace backbone,
      Path driverLog,
      Path captureDir,
      TcpTrace tcp,
      LinkTrace links) {}

  /**
   * Runs a driver program ({@link DriverMain}, with this JVM's class path, or the other line's
   * Spark home and jars this experiment was started with) on the control host and waits for it.
   *
   * @param name run name (log and file names)
   * @param request the job (its {@code sparkConf} should start from {@link #baseConf(String)})
   * @param killDelayMs when {@code request.killExecutorOnB() > 0}: kill the executor of the first B
   *     host this long after the first reduce task started
   * @return the measurement
   * @throws IllegalStateException if the driver fails or runs longer than 30 min (the message
   *     quotes its log), or if interrupted (the driver is killed)
   * @throws UncheckedIOException if a file of the run cannot be written or read
   */
  public Measured run(String name, JobRequest request, long killDelayMs) {
    String tag = nextTag(name);
    Path req = runDir.resolve(tag + ".request.json");
    Path res = runDir.resolve(tag + ".result.json");
    Path log = spark.runDir().resolve("driver-" + tag + ".log");
    Path capture = null;
    if (filesAfterShuffleManager) {
      Map<String, String> c = new LinkedHashMap<>(request.sparkConf());
      onExecutorClassPath(c, List.of(c.getOrDefault("spark.jars", "").split(",")));
      request = request.withSparkConf(request.appName(), c);
    }
    if (PluginSettings.capturing(request.sparkConf())) {
      capture = runDir.resolve("capture-" + tag);
      Map<String, String> c = new LinkedHashMap<>(request.sparkConf());
      c.put(CaptureSettings.CAPTURE_DIR.key(), capture.toString());
      request = request.withSparkConf(request.appName(), c);
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
    RunRecorder rec = new RunRecorder(testbed, sampleTcp);
    Process driver =
        spark.launchJava(
            testbed.control(),
            "driver-" + tag,
            List.of("-Xmx768m"),
            driverClassPath,
            DriverMain.class.getName(),
            List.of(req.toString(), res.toString()));
    try {
      awaitDriver(driver, tag, log, request.killExecutorOnB() > 0 ? killDelayMs : -1);
      rec.finish(runDir, tag);
      if (driver.exitValue() != 0 || !Files.exists(res)) {
        throw new IllegalStateException(
            "driver "
                + tag
                + " failed (exit "
                + driver.exitValue()
                + "); end of "
                + log
                + ":\n"
                + SparkCluster.tail(Files.readString(log)));
      }
      return new Measured(
          name,
          JSON.readValue(res.toFile(), JobResult.class),
          rec.backbone(),
          log,
          capture,
          rec.tcp(),
          rec.links());
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
   * Waits for a driver program to end, killing the executor of the first B host {@code killDelayMs}
   * after the driver printed {@link DriverMain#REDUCE_STARTED} (when not negative).
   *
   * @throws IllegalStateException if the driver runs longer than {@link #DRIVER_TIMEOUT} (it is
   *     killed)
   */
  private void awaitDriver(Process driver, String tag, Path log, long killDelayMs)
      throws IOException, InterruptedException {
    boolean killed = killDelayMs < 0;
    long deadline = System.currentTimeMillis() + DRIVER_TIMEOUT.toMillis();
    while (driver.isAlive()) {
      if (System.currentTimeMillis() > deadline) {
        driver.destroyForcibly();
        throw new IllegalStateException(
            "driver "
                + tag
                + " ran longer than "
                + DRIVER_TIMEOUT.toMinutes()
                + " min; see "
                + log);
      }
      if (!killed
          && Files.exists(log)
          && Files.readString(log).contains(DriverMain.REDUCE_STARTED)) {
        Thread.sleep(killDelayMs);
        killFirstReceiverExecutor(tag);
        killed = true;
      }
      driver.waitFor(200, TimeUnit.MILLISECONDS);
    }
  }

  /** Kills the executor of b1 and notes it in {@code <runDir>/<tag>.fault.txt}. */
  private void killFirstReceiverExecutor(String tag) throws IOException {
    Node victim = testbed.clusterB().get(0);
    int n = spark.killExecutors(victim.address());
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
  }

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
  @Override
  public Submitted submit(String name, Submission app, Duration timeout) {
    SubmissionRun run = SubmissionRun.of(runDir, nextSeq(), name, app.conf());
    Map<String, String> conf = new LinkedHashMap<>(run.conf());
    onExecutorClassPath(conf, app.jars().stream().map(Path::toString).toList());
    List<String> args = app.sparkSubmitArgs(spark.masterUrl(), "client", conf);
    run.prepare(args);
    Path log = spark.runDir().resolve("driver-" + run.tag() + ".log");
    RunRecorder rec = new RunRecorder(testbed, sampleTcp);
    long start = System.currentTimeMillis();
    Process driver =
        spark.sparkSubmit(
            testbed.control(),
            "driver-" + run.tag(),
            List.of("-Xmx" + app.driverMemory()),
            args,
            run.stdout());
    try {
      String failure = SubmissionRun.await(driver, timeout, log);
      long end = System.currentTimeMillis();
      rec.finish(runDir, run.tag());
      return run.result(name, failure, start, end, log, rec);
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
   * On a Spark 3.5 home with the plugin as shuffle manager, puts the plugin jar on the executors'
   * class path ({@code spark.executor.extraClassPath}): that line creates an executor's shuffle
   * manager before it fetches {@code spark.jars}. Every host of the testbed sees the jar's path.
   *
   * @param conf a run's Spark settings (changed in place)
   * @param jars the run's jars ({@code --jars} or {@code spark.jars})
   */
  private void onExecutorClassPath(Map<String, String> conf, List<String> jars) {
    if (!filesAfterShuffleManager
        || !PluginSettings.WAN_SHUFFLE_MANAGER.equals(conf.get("spark.shuffle.manager"))) {
      return;
    }
    List<String> plugin =
        jars.stream()
            .filter(j -> Path.of(j).getFileName().toString().startsWith("wan-shuffle-spark-"))
            .toList();
    if (!plugin.isEmpty()) {
      conf.merge(
          "spark.executor.extraClassPath",
          String.join(java.io.File.pathSeparator, plugin),
          (old, add) -> old + java.io.File.pathSeparator + add);
    }
  }

  /**
   * @return {@code NN-name}: the run's number in this experiment and its name, safe for file names
   */
  private String nextTag(String name) {
    return String.format("%02d-%s", nextSeq(), name.replaceAll("[^A-Za-z0-9_.-]", "_"));
  }

  /**
   * @return the next run's number (runs may start together from several threads)
   */
  private synchronized int nextSeq() {
    return ++seq;
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
