package io.wanshuffle.it.cluster;

import io.wanshuffle.it.job.Placement;
import io.wanshuffle.it.job.ShuffleJobs;
import io.wanshuffle.it.spark.AppJars;
import io.wanshuffle.it.spark.SparkCluster;
import java.nio.file.Path;
import org.apache.spark.SparkConf;

/** Driver configurations of the end-to-end tests: Spark's sort manager or wan-shuffle. */
final class PluginConf {
  static final String MANAGER = "io.wanshuffle.spark.WanShuffleManager";
  static final String CAPTURE = "io.wanshuffle.spark.capture.CaptureListener";

  /**
   * System property: {@code true} also puts the plugin jar on the executors' system class path
   * ({@code spark.executor.extraClassPath}). Off by default: users ship the plugin with {@code
   * --jars} only, and so do the tests. Only for telling a class-loading problem of the {@code
   * --jars} path apart from other failures.
   */
  static final String EXECUTOR_CLASS_PATH = "wanshuffle.it.pluginOnExecutorClassPath";

  private PluginConf() {}

  /**
   * Common settings: the cluster's ({@link SparkCluster#conf}, executors of 512m), placement, AQE
   * on, the job jar (and the plugin jar) shipped to executors.
   */
  static SparkConf base(SparkCluster cluster, String app, boolean plugin) {
    Path work = cluster.runDir().resolve("app");
    String jars = AppJars.jarOf(ShuffleJobs.class, work).toString();
    if (plugin) {
      jars = AppJars.pluginJar() + "," + jars;
    }
    SparkConf conf = new SparkConf().setAppName(app);
    cluster.conf("512m").forEach(conf::set);
    return Placement.configure(conf)
        .set("spark.sql.adaptive.enabled", "true")
        .set("spark.sql.shuffle.partitions", "8")
        .set("spark.jars", jars);
  }

  /** Spark's own sort shuffle manager. */
  static SparkConf sort(SparkCluster cluster, String app) {
    return base(cluster, app, false).set("spark.shuffle.manager", "sort");
  }

  /**
   * wan-shuffle with a 200 Mbit/s backbone and 100 Mbit/s NICs (base speed 100 Mbit/s: k = 2, δ =
   * 1), every cross-cluster read gated however small ({@code gate.minBytes=0}: the tests' jobs are
   * small, and what they check is gating), capture files under the run folder (the capture listener
   * is also started without being listed; listing it checks that a duplicate entry is harmless).
   */
  static SparkConf plugin(SparkCluster cluster, String app) {
    SparkConf conf =
        base(cluster, app, true)
            .set("spark.shuffle.manager", MANAGER)
            .set("spark.wanshuffle.backbone.rate", "200mbit")
            .set("spark.wanshuffle.nic.rate", "100mbit")
            .set("spark.wanshuffle.listeners", CAPTURE)
            .set("spark.wanshuffle.gate.minBytes", "0")
            // a sort-merge join reads two gated shuffles; a step whose receiver reads the other
            // side
            // first runs to its deadline (plugin note): keep that short on an unshaped loopback
            .set("spark.wanshuffle.step.minDeadline", "1s")
            .set("spark.wanshuffle.capture.dir", cluster.runDir().resolve("capture").toString());
    if (Boolean.getBoolean(EXECUTOR_CLASS_PATH)) {
      // diagnosis only: also put the plugin on the executors' system class path
      conf.set("spark.executor.extraClassPath", AppJars.pluginJar().toString());
    }
    return conf;
  }
}
