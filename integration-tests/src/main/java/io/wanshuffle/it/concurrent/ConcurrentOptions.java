package io.wanshuffle.it.concurrent;

import io.wanshuffle.it.net.Node;
import io.wanshuffle.it.spark.ClusterOptions;
import io.wanshuffle.spark.config.ArbiterSettings;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.network.util.JavaUtils;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options of {@code run-app} and {@code e2e-bench} that run several applications at once on the
 * testbed: {@code --concurrent N} (N copies of each run's application started together, one driver
 * each) and {@code --arbiter zookeeper} (a ZooKeeper server on the driver's host and {@link
 * ArbiterSettings#ZOOKEEPER} set for the wan-shuffle runs, so their drivers split each link's
 * window). With N copies each Spark Worker offers N executors' cores and memory, and each
 * application takes one executor per host.
 */
public final class ConcurrentOptions {
  /** {@code --arbiter}: no arbiter, each application holds every link's whole window. */
  public static final String NONE = "none";

  /** {@code --arbiter}: the drivers split the windows through a ZooKeeper server. */
  public static final String ZOOKEEPER = "zookeeper";

  /** Most copies {@code --concurrent} takes: each is a driver and an executor per testbed host. */
  static final int MAX_APPS = 8;

  @Option(
      names = "--concurrent",
      paramLabel = "N",
      defaultValue = "1",
      description =
          "start N copies of each run's application at once (one driver each, one executor per host"
              + " each; Spark standalone only), 1.."
              + MAX_APPS
              + " (default ${DEFAULT-VALUE})")
  int apps = 1;

  @Option(
      names = "--arbiter",
      paramLabel = "none|zookeeper",
      defaultValue = NONE,
      description =
          "zookeeper: run a ZooKeeper server (3.9.5) on the driver's host and set"
              + " spark.wanshuffle.arbiter.zookeeper for the wan-shuffle runs, whose drivers then split"
              + " each link's window; none: each holds the whole window (default ${DEFAULT-VALUE})")
  String arbiter = NONE;

  /**
   * @return the copies of each run's application
   */
  public int apps() {
    return apps;
  }

  /**
   * @return whether the wan-shuffle runs use the ZooKeeper arbiter
   */
  public boolean zooKeeper() {
    return ZOOKEEPER.equals(arbiter);
  }

  /**
   * @return the arbiter's name for the reports: {@value #ZOOKEEPER}, or null without one
   */
  public String arbiterName() {
    return zooKeeper() ? ZOOKEEPER : null;
  }

  /**
   * @return whether the options ask for anything beyond one application without arbiter
   */
  public boolean active() {
    return apps > 1 || zooKeeper();
  }

  /**
   * @param cl the command, for the usage error
   * @param standalone whether the command runs Spark standalone (YARN: neither option)
   * @throws CommandLine.ParameterException naming the option of a value out of range
   */
  public void check(CommandLine cl, boolean standalone) {
    if (apps < 1 || apps > MAX_APPS) {
      throw new CommandLine.ParameterException(
          cl, "--concurrent must be 1.." + MAX_APPS + ", got " + apps);
    }
    if (!NONE.equals(arbiter) && !ZOOKEEPER.equals(arbiter)) {
      throw new CommandLine.ParameterException(
          cl, "--arbiter: use " + NONE + " or " + ZOOKEEPER + ", got " + arbiter);
    }
    if (!standalone && active()) {
      throw new CommandLine.ParameterException(
          cl, "--concurrent and --arbiter run on Spark standalone only (not with --master yarn)");
    }
  }

  /**
   * @return the options as given, for a report's command line ({@code ""} when not active)
   */
  public String commandLine() {
    return (apps > 1 ? " --concurrent " + apps : "") + (zooKeeper() ? " --arbiter " + arbiter : "");
  }

  /**
   * @param base the cluster's options for one application
   * @param executorMemory one executor's memory (Spark size)
   * @return {@code base} with room on every Worker for one executor of each copy: cores and memory
   *     times the copies (at least {@code base}'s memory)
   */
  public ClusterOptions cluster(ClusterOptions base, String executorMemory) {
    if (apps == 1) {
      return base;
    }
    long perApp = JavaUtils.byteStringAsMb(executorMemory);
    long workerMb = Math.max(JavaUtils.byteStringAsMb(base.workerMemory()), apps * perApp);
    return base.withWorkerCores(base.workerCores() * apps).withWorkerMemory(workerMb + "m");
  }

  /**
   * The settings one copy adds to its run's: one executor per host of {@code cores} cores, and for
   * a wan-shuffle run the arbiter's ensemble.
   *
   * @param workers the testbed's worker hosts
   * @param cores cores per executor
   * @param wanShuffle whether the run is a wan-shuffle one
   * @param zk the arbiter's server, or null
   * @return a new mutable map
   */
  public Map<String, String> appConf(
      int workers, int cores, boolean wanShuffle, ZooKeeperServer zk) {
    Map<String, String> c = new LinkedHashMap<>();
    if (apps > 1) {
      c.put("spark.executor.cores", Integer.toString(cores));
      c.put("spark.cores.max", Integer.toString(workers * cores));
    }
    if (wanShuffle && zk != null) {
      c.put(ArbiterSettings.ZOOKEEPER.key(), zk.connectString());
    }
    return c;
  }

  /**
   * Starts the arbiter's ZooKeeper server when asked.
   *
   * @param driverHost the host the drivers run on
   * @param dir folder for its log
   * @return the server (close it), or null without {@code --arbiter zookeeper}
   */
  public ZooKeeperServer startArbiter(Node driverHost, Path dir) {
    if (!zooKeeper()) {
      return null;
    }
    ZooKeeperServer zk = ZooKeeperServer.start(driverHost, dir);
    System.out.println("arbiter: ZooKeeper on " + zk.connectString());
    return zk;
  }

  /**
   * @param name a run's name
   * @param app the copy, from 0
   * @return the copy's name: {@code name} alone for a single copy, else {@code name-appN} (from 1)
   */
  public String appName(String name, int app) {
    return apps == 1 ? name : String.format(Locale.ROOT, "%s-app%d", name, app + 1);
  }
}
