package io.wanshuffle.it.experiment;

import io.wanshuffle.it.net.Testbed;
import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.it.spark.YarnCluster;
import io.wanshuffle.it.spark.YarnHome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.network.util.JavaUtils;

/**
 * A testbed with YARN on it ({@link YarnCluster}: a ResourceManager on the control host, a
 * NodeManager on every worker host), running applications with {@code spark-submit --master yarn}
 * in client or cluster deploy mode, with dynamic allocation and shuffle tracking, each measured
 * from outside Spark as {@link Experiment#submit} measures a standalone run.
 *
 * <p>Run folder: per submission {@code NN-name/} ({@code stdout.txt}: the application's stdout, in
 * cluster mode copied from the ApplicationMaster's container log; {@code events/}, {@code
 * capture/}, {@code spark-submit.args}); YARN's folder {@code yarn/} (daemon logs, spark-submit
 * logs {@code driver-NN-name.log}, container logs under {@code <host>/logs}, the topology table).
 */
public final class YarnExperiment implements AppRunner {
  /** {@code spark.dynamicAllocation.executorIdleTimeout} of {@link #clusterConf}. */
  public static final String IDLE_TIMEOUT = "10s";

  private final Testbed testbed;
  private final YarnCluster yarn;
  private final Path runDir;
  private final int cores;
  private final String deployMode;
  private int seq;

  private YarnExperiment(
      Testbed testbed, YarnCluster yarn, Path runDir, int cores, String deployMode) {
    this.testbed = testbed;
    this.yarn = yarn;
    this.runDir = runDir;
    this.cores = cores;
    this.deployMode = deployMode;
  }

  /**
   * Builds the testbed (variant from {@code -Dwanshuffle.testbed}) and starts YARN on it (run
   * folder {@code <runDir>/yarn}, jars from {@link YarnHome#locate()}).
   *
   * @param spec testbed sizes and rates
   * @param runDir folder for logs and results (created)
   * @param options the containers' sizes
   * @param cores {@code spark.executor.cores}
   * @param deployMode {@code client} or {@code cluster}: how {@link #submit(String, Submission,
   *     Duration)} submits
   * @return the experiment; close it to tear everything down
   * @throws IllegalArgumentException if {@code deployMode} is neither or {@code cores < 1}
   * @throws io.wanshuffle.it.net.TestbedUnavailableException when the shaped testbed cannot be
   *     built here
   * @throws IllegalStateException if the YARN jars are not built or YARN does not start (the
   *     testbed is closed again)
   */
  public static YarnExperiment start(
      TestbedSpec spec, Path runDir, YarnCluster.Options options, int cores, String deployMode) {
    checkDeployMode(deployMode);
    if (cores < 1) {
      throw new IllegalArgumentException("cores must be >= 1, got " + cores);
    }
    YarnHome home = YarnHome.locate();
    Path dir = runDir.toAbsolutePath();
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
    Testbed t = Testbed.open(spec);
    try {
      YarnCluster y = YarnCluster.start(t, home, dir.resolve("yarn"), options);
      return new YarnExperiment(t, y, dir, cores, deployMode);
    } catch (RuntimeException e) {
      t.close();
      throw e;
    }
  }

  private static void checkDeployMode(String deployMode) {
    if (!deployMode.equals("client") && !deployMode.equals("cluster")) {
      throw new IllegalArgumentException(
          "deploy mode must be client or cluster, got '" + deployMode + "'");
    }
  }

  @Override
  public Testbed testbed() {
    return testbed;
  }

  /**
   * @return the YARN cluster
   */
  public YarnCluster yarn() {
    return yarn;
  }

  @Override
  public Path topologyConfig() {
    return yarn.topologyConfig();
  }

  /**
   * {@link YarnCluster#conf(int, String)} with this experiment's cores and an idle timeout of
   * {@value #IDLE_TIMEOUT}.
   *
   * @param executorMemory executor memory; must be the size YARN was started for
   * @return a new mutable map
   * @throws IllegalArgumentException if {@code executorMemory} is not the cluster's executor size
   */
  @Override
  public Map<String, String> clusterConf(String executorMemory) {
    long mb = JavaUtils.byteStringAsMb(executorMemory);
    if (mb != yarn.options().executorMemoryMb()) {
      throw new IllegalArgumentException(
          "YARN was started for executors of "
              + yarn.options().executorMemoryMb()
              + " MB, not "
              + executorMemory);
    }
    return yarn.conf(cores, IDLE_TIMEOUT);
  }

  @Override
  public Map<String, String> wanShuffleConf(String variant) {
    Map<String, String> c = PluginSettings.of(testbed.spec(), variant);
    if (PluginSettings.topologyAware(variant)) {
      c.putAll(PluginSettings.topology(yarn.topologyTable(), yarn.topologyConfig()));
    }
    return c;
  }

  /** Submits in the deploy mode the experiment was started with. */
  @Override
  public Submitted submit(String name, Submission app, Duration timeout) {
    return submit(name, app, timeout, deployMode);
  }

  /**
   * Runs an application with {@code spark-submit --master yarn} on the control host and waits for
   * it (in cluster mode spark-submit waits for the application), measuring the backbone around it.
   * Its event log goes to {@code <runDir>/<NN-name>/events}, the plugin's capture (with the capture
   * listener) to {@code <runDir>/<NN-name>/capture}: folders every host shares, so a cluster-mode
   * driver writes there too.
   *
   * @param name run name
   * @param app the application; its {@code driverMemory} is spark-submit's heap (in client mode the
   *     driver's)
   * @param timeout longest run; past it spark-submit is killed (in cluster mode YARN then still
   *     runs the application until the cluster stops)
   * @param mode {@code client} or {@code cluster}
   * @return the measurement (a failed application is a result, not an exception)
   * @throws IllegalArgumentException if {@code mode} is neither
   * @throws UncheckedIOException if the run folder cannot be written or spark-submit cannot be
   *     started
   * @throws IllegalStateException if interrupted (spark-submit is killed)
   */
  public Submitted submit(String name, Submission app, Duration timeout, String mode) {
    checkDeployMode(mode);
    SubmissionRun run = SubmissionRun.of(runDir, ++seq, name, app.conf());
    String tag = run.tag();
    Path stdout = run.stdout();
    Path log = yarn.runDir().resolve("driver-" + tag + ".log");
    List<String> args = app.sparkSubmitArgs("yarn", mode, run.conf());
    run.prepare(args);
    boolean cluster = mode.equals("cluster");
    Path submitOut = cluster ? run.dir().resolve("spark-submit.stdout.txt") : stdout;
    RunRecorder rec = new RunRecorder(testbed, false);
    long start = System.currentTimeMillis();
    Process submit =
        yarn.sparkSubmit("driver-" + tag, List.of("-Xmx" + app.driverMemory()), args, submitOut);
    try {
      String failure = SubmissionRun.await(submit, timeout, log);
      long end = System.currentTimeMillis();
      rec.finish(runDir, tag);
      Path driverLog = log;
      if (cluster) {
        Optional<String> appId = YarnCluster.applicationId(log);
        Optional<Path> amOut = appId.flatMap(id -> yarn.amLog(id, "stdout"));
        if (amOut.isPresent()) {
          Files.copy(amOut.get(), stdout, StandardCopyOption.REPLACE_EXISTING);
        } else {
          Files.writeString(stdout, "");
        }
        driverLog = appId.flatMap(id -> yarn.amLog(id, "stderr")).orElse(log);
      }
      return run.result(name, failure, start, end, driverLog, rec);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } finally {
      rec.abandon();
      if (submit.isAlive()) {
        submit.destroyForcibly();
      }
    }
  }

  /** Stops YARN, then tears the testbed down. */
  @Override
  public void close() {
    try {
      yarn.close();
    } finally {
      testbed.close();
    }
  }
}
