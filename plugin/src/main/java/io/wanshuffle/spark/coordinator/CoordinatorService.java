package io.wanshuffle.spark.coordinator;

import io.wanshuffle.spark.arbiter.BackboneShares;
import io.wanshuffle.spark.config.CaptureSettings;
import io.wanshuffle.spark.config.ConfigValueException;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.event.CoordinatorInfo;
import io.wanshuffle.spark.coordinator.event.CoordinatorListener;
import io.wanshuffle.spark.coordinator.event.CoordinatorTimer;
import io.wanshuffle.spark.coordinator.plan.PlanningLoop;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.rpc.RpcEndpointRef;
import org.apache.spark.rpc.RpcEnv;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver side of wan-shuffle: builds the {@link StepCoordinator} (scheduler by name; the
 * capture listener when present, then the listeners named by {@link Settings#LISTENERS}), registers
 * its {@link CoordinatorEndpoint} on the driver's RpcEnv and, once the SparkContext is up, its
 * {@link CoordinatorSparkListener} and this application's share of the backbone ({@link
 * BackboneShares}: the whole of every link's window without an arbiter).
 */
public final class CoordinatorService {
  private static final Logger LOG = LoggerFactory.getLogger(CoordinatorService.class);

  private final SparkConf sparkConf;
  private final WanShuffleConf conf;
  private final StepCoordinator coordinator;
  private final RpcEnv rpcEnv;
  private final RpcEndpointRef endpoint;
  private final io.wanshuffle.spark.topology.LinkModel links;

  /** The coordinator's planner thread (runs the scheduler off the RPC threads). */
  private final ExecutorService planner;

  private boolean attached;

  /**
   * Creates the coordinator and registers its endpoint.
   *
   * @param sparkConf the application's configuration
   * @param conf validated wan-shuffle configuration
   * @param rpcEnv the driver's RpcEnv
   * @param clusterOf the cluster of a host, never null ("" for a host outside the topology)
   * @param links the links flows cross and their capacities
   * @throws ConfigValueException if a listener class cannot be instantiated
   */
  public CoordinatorService(
      SparkConf sparkConf,
      WanShuffleConf conf,
      RpcEnv rpcEnv,
      java.util.function.Function<String, String> clusterOf,
      io.wanshuffle.spark.topology.LinkModel links) {
    this.sparkConf = sparkConf;
    this.conf = conf;
    this.rpcEnv = rpcEnv;
    this.links = links;
    this.planner = PlanningLoop.thread("wan-shuffle-planner");
    this.coordinator =
        StepCoordinator.builder(conf)
            .configuredScheduler()
            .listeners(instantiate(sparkConf, conf))
            .timer(CoordinatorTimer.daemon("wan-shuffle-coordinator"))
            .clock(System::currentTimeMillis)
            .planner(planner)
            .clusters(clusterOf)
            .links(links)
            .build();
    this.endpoint =
        rpcEnv.setupEndpoint(
            CoordinatorEndpoint.NAME,
            new CoordinatorEndpoint(
                rpcEnv, coordinator, CoordinatorTimer.daemon("wan-shuffle-poll")));
    LOG.info("wan-shuffle coordinator started on the driver: {}; links: {}", conf, links);
  }

  /**
   * The built-in capture listener, always instantiated when it is on the classpath (it writes files
   * only when {@code spark.wanshuffle.capture.dir} is set).
   */
  static final String CAPTURE_LISTENER = "io.wanshuffle.spark.capture.CaptureListener";

  private static List<CoordinatorListener> instantiate(SparkConf sparkConf, WanShuffleConf conf) {
    List<CoordinatorListener> out = new ArrayList<>();
    List<String> names = new ArrayList<>();
    if (loader().getResource(CAPTURE_LISTENER.replace('.', '/') + ".class") != null
        && !conf.get(CaptureSettings.LISTENERS).contains(CAPTURE_LISTENER)) {
      names.add(CAPTURE_LISTENER);
    }
    names.addAll(conf.get(CaptureSettings.LISTENERS));
    for (String name : names) {
      try {
        Class<?> c = Class.forName(name, true, loader());
        Object o;
        try {
          o = c.getConstructor(SparkConf.class).newInstance(sparkConf);
        } catch (NoSuchMethodException e) {
          o = c.getConstructor().newInstance();
        }
        if (!(o instanceof CoordinatorListener l)) {
          throw new ConfigValueException(
              CaptureSettings.LISTENERS.key(),
              name,
              "class does not implement " + CoordinatorListener.class.getName());
        }
        out.add(l);
      } catch (java.lang.reflect.InvocationTargetException e) {
        if (e.getCause() instanceof ConfigValueException cve) {
          throw cve;
        }
        throw new ConfigValueException(
            CaptureSettings.LISTENERS.key(),
            name,
            "the listener's constructor failed: " + e.getCause());
      } catch (ReflectiveOperationException | LinkageError e) {
        throw new ConfigValueException(
            CaptureSettings.LISTENERS.key(), name, "cannot instantiate the listener: " + e);
      }
    }
    return out;
  }

  private static ClassLoader loader() {
    ClassLoader cl = Thread.currentThread().getContextClassLoader();
    return cl != null ? cl : CoordinatorService.class.getClassLoader();
  }

  /**
   * Registers the driver-side SparkListener and starts the listeners; idempotent.
   *
   * @param sc the running SparkContext
   */
  public synchronized void attach(SparkContext sc) {
    if (attached) {
      return;
    }
    attached = true;
    sc.addSparkListener(new CoordinatorSparkListener(coordinator));
    coordinator.start(new CoordinatorInfo(sparkConf, conf, links, sc));
    if (conf.gated()) {
      // the topology's file is in place by now (on Spark 3.5 at the first shuffle): it names the
      // applications that share a backbone
      coordinator.shareBackbone(BackboneShares.open(sparkConf, conf, sc.applicationId()));
    }
  }

  /**
   * @return the coordinator (for tests and metrics)
   */
  public StepCoordinator coordinator() {
    return coordinator;
  }

  /** Stops the endpoint and the coordinator. */
  public void stop() {
    try {
      rpcEnv.stop(endpoint);
    } catch (RuntimeException e) {
      LOG.debug("wan-shuffle endpoint stop", e);
    }
    coordinator.stop();
    planner.shutdownNow();
  }
}
