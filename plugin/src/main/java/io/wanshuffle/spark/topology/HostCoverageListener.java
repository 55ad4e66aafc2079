package io.wanshuffle.spark.topology;

import io.wanshuffle.spark.compat.ScalaCollections;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerBlockManagerAdded;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.status.api.v1.ExecutorSummary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's check of the executor hosts against the topology ({@link HostCoverage}): attached
 * when the first shuffle is registered, it takes the executors registered so far and then each
 * block manager that registers (the host the readers ask the topology about is the block manager's,
 * {@code BlockManagerId.host}). It logs once how many executor hosts the topology maps, naming the
 * others (a host that registers later: one warning), and posts a {@link WanShuffleTopologyHost}
 * event per host for the WAN Shuffle tab. With {@code spark.wanshuffle.topology.strict=true} an
 * unmapped host stops the application instead: its running jobs are cancelled with an error naming
 * the host, and the SparkContext stops.
 *
 * <p>The driver's own block manager is not an executor host (it holds no shuffle output), except in
 * local mode, where the driver runs the tasks.
 */
public final class HostCoverageListener extends SparkListener {
  private static final Logger LOG = LoggerFactory.getLogger(HostCoverageListener.class);

  /** The executor id of the driver's own block manager (Spark's {@code DRIVER_IDENTIFIER}). */
  static final String DRIVER = "driver";

  /** What the listener does to the application: post events, stop it. */
  interface Application {
    /**
     * @param e an event for the listener bus
     */
    void post(SparkListenerEvent e);

    /**
     * Cancels the running jobs with {@code reason} and stops the application; called at most once.
     *
     * @param reason why, naming the host
     */
    void stop(String reason);
  }

  private final HostCoverage coverage;
  private final boolean strict;
  private final boolean local;
  private final Application app;

  /** The error that stopped the application (strict), null while none. */
  private final AtomicReference<String> violation = new AtomicReference<>();

  private boolean summarised;

  /**
   * @param coverage the record of the hosts
   * @param strict whether an unmapped host stops the application
   * @param local whether the driver runs the tasks (local mode)
   * @param app posts events and stops the application
   */
  HostCoverageListener(HostCoverage coverage, boolean strict, boolean local, Application app) {
    this.coverage = coverage;
    this.strict = strict;
    this.local = local;
    this.app = app;
  }

  /**
   * Registers the check on a running application and takes the executors registered so far, logging
   * the summary when at least one is.
   *
   * @param sc the running context
   * @param topology the topology the readers use
   * @param conf the plugin's configuration ({@link Settings#TOPOLOGY_STRICT})
   * @return the listener, registered on {@code sc}'s listener bus
   */
  public static HostCoverageListener attach(
      SparkContext sc, ClusterTopology topology, WanShuffleConf conf) {
    HostCoverageListener l =
        new HostCoverageListener(
            HostCoverage.of(topology),
            conf.get(Settings.TOPOLOGY_STRICT),
            sc.isLocal(),
            new SparkApplication(sc));
    sc.addSparkListener(l);
    for (ExecutorSummary e : ScalaCollections.asJava(sc.statusStore().executorList(true))) {
      if (e.hostPort() != null) {
        l.seen(e.id(), host(e.hostPort()));
      }
    }
    l.summarise();
    return l;
  }

  /** {@code host} of {@code host:port} or {@code [v6 address]:port}. */
  static String host(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    String h = colon < 0 ? hostPort : hostPort.substring(0, colon);
    return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
  }

  @Override
  public void onBlockManagerAdded(SparkListenerBlockManagerAdded e) {
    seen(e.blockManagerId().executorId(), e.blockManagerId().host());
    summarise();
  }

  /**
   * Records a block manager's host: posts its event the first time, and for a host the topology
   * does not map warns (once the summary was logged) or, when strict, stops the application.
   *
   * @param executorId the block manager's executor ({@code driver} for the driver's own)
   * @param host its host
   */
  void seen(String executorId, String host) {
    if (executorId.equals(DRIVER) && !local) {
      return;
    }
    HostCoverage.Sighting s = coverage.see(host);
    if (!s.first()) {
      return;
    }
    app.post(new WanShuffleTopologyHost(executorId, host, s.path().orElse(null)));
    if (s.mapped()) {
      return;
    }
    if (strict) {
      String error = coverage.strictError(host, executorId);
      if (violation.compareAndSet(null, error)) {
        LOG.error("wan-shuffle: {}", error);
        app.stop(error);
      }
    } else if (isSummarised()) {
      LOG.warn("wan-shuffle: {}", coverage.unmappedWarning(host, executorId));
    }
  }

  /** Logs the summary once, when at least one executor host was seen. */
  private void summarise() {
    synchronized (this) {
      if (summarised || coverage.mapped().isEmpty() && coverage.unmapped().isEmpty()) {
        return;
      }
      summarised = true;
    }
    if (coverage.unmapped().isEmpty()) {
      LOG.info("wan-shuffle: {}", coverage.summary());
    } else {
      LOG.warn("wan-shuffle: {}", coverage.summary());
    }
  }

  private synchronized boolean isSummarised() {
    return summarised;
  }

  /**
   * @return the error that stopped the application ({@code topology.strict}), empty while every
   *     executor host seen is mapped or the check is lenient
   */
  public Optional<String> violation() {
    return Optional.ofNullable(violation.get());
  }

  /**
   * @return the record of the hosts seen
   */
  public HostCoverage coverage() {
    return coverage;
  }

  /** A running Spark application. */
  private static final class SparkApplication implements Application {
    private final SparkContext sc;

    SparkApplication(SparkContext sc) {
      this.sc = sc;
    }

    @Override
    public void post(SparkListenerEvent e) {
      sc.listenerBus().post(e);
    }

    /**
     * On a thread of its own: a listener may not stop the context it listens to (Spark refuses it
     * on the listener bus thread), nor may the scheduler's event loop, which registers shuffles.
     */
    @Override
    public void stop(String reason) {
      Thread t =
          new Thread(
              () -> {
                for (int job : sc.statusTracker().getActiveJobIds()) {
                  sc.cancelJob(job, "by wan-shuffle: " + reason);
                }
                sc.stop();
              },
              "wan-shuffle-strict-topology");
      t.setDaemon(true);
      t.start();
    }
  }
}
