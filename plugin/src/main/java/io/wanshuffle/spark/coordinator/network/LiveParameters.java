package io.wanshuffle.spark.coordinator.network;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.event.CoordinatorLogger;
import io.wanshuffle.spark.measure.NetworkEstimate;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import org.slf4j.Logger;

/**
 * The planning parameters in force ({@link PlanningParameters}): the one place that holds them and
 * the one place that replaces them, whole, when the measured network changes them ({@link
 * #adoptMeasured}). Every role reads {@link #current()} when it needs a value; none keeps a copy
 * beyond one planning round.
 *
 * <p>Thread-safe: the snapshot is replaced under the coordinator's lock and read with or without it
 * (a volatile reference to an immutable value).
 */
public final class LiveParameters {
  private static final Logger LOG = CoordinatorLogger.LOG;

  /**
   * Least relative change of a measured β or base speed against the value in use that switches it
   * ({@link #adoptMeasured}).
   */
  static final double AUTO_SWITCH_CHANGE = 0.10;

  private volatile PlanningParameters current;

  /**
   * @param initial the parameters to plan with until measurements replace them
   */
  public LiveParameters(PlanningParameters initial) {
    this.current = Objects.requireNonNull(initial, "initial");
  }

  /**
   * @return the parameters in force
   */
  public PlanningParameters current() {
    return current;
  }

  /**
   * Moves a link's window ({@link WindowControl}): the snapshot in force is replaced by one with
   * that window.
   *
   * @param link a link id of the link model in force
   * @param window the flows it is admitted from now on, at least 1
   */
  void setWindow(int link, int window) {
    current = current.withWindow(link, window);
  }

  /**
   * Installs this application's shares of the links' windows (several applications on one backbone,
   * {@code io.wanshuffle.spark.arbiter}).
   *
   * @param caps per link id, the share in flows, or -1 (the whole window)
   */
  public void setShares(int[] caps) {
    current = current.withShares(caps);
  }

  /**
   * Replaces the {@code auto} values later plans use by the measured ones, called while stages run
   * (at most every few seconds) and when a stage ends, each switch logged in one INFO line naming
   * the old and the new value. With {@code beta=auto}: the measured β, at least {@link
   * WanShuffleConf#AUTO_BETA_FLOOR_SECONDS}, once the measurement holds {@link
   * WanShuffleConf#AUTO_MIN_FLOWS} flows and some gated flow. With {@code k=auto} or {@code auto}
   * rates ({@link WanShuffleConf#platformAuto()}) on the KPBS platform of the rate keys (not with a
   * topology file): k, the base speed and δ of the measured rates ({@link MeasuredPlatform}) once
   * it holds {@link WanShuffleConf#AUTO_MIN_FLOWS} flows, applied only when {@code linksFree} (no
   * flow is open and no plan is being computed; else at a later stage's end). A value is switched
   * only when k changes or β or the base speed moves by more than {@link #AUTO_SWITCH_CHANGE} of
   * the value in use, so that the measurement's stage-to-stage noise neither re-plans nor logs.
   *
   * @param e the network measured so far
   * @param conf the configuration: which values are {@code auto}, the configured ones
   * @param clusterOf the cluster of a host, for a new link model
   * @param linksFree whether the link model may be replaced now
   * @return true when the link model was replaced (a plan made on the old one is void)
   */
  public boolean adoptMeasured(
      NetworkEstimate e,
      WanShuffleConf conf,
      Function<String, String> clusterOf,
      boolean linksFree) {
    if (e.flows() < WanShuffleConf.AUTO_MIN_FLOWS) {
      return false;
    }
    PlanningParameters p = current;
    if (conf.betaAuto() && e.hasBeta()) {
      double measured = Math.max(0, e.betaSeconds());
      double planned = Math.max(WanShuffleConf.AUTO_BETA_FLOOR_SECONDS, measured);
      if (movedBeyond(p.betaSeconds(), planned)) {
        LOG.info(
            "wan-shuffle {} = auto: plans from now on use β {} s instead of {} s (measured {} s"
                + " over {} flows, floor {} s)",
            Settings.BETA.key(),
            fmt(planned),
            fmt(p.betaSeconds()),
            fmt(measured),
            e.flows(),
            fmt(WanShuffleConf.AUTO_BETA_FLOOR_SECONDS));
        p = p.withBeta(planned);
      }
    }
    boolean relinked = false;
    if (conf.platformAuto() && conf.get(Settings.TOPOLOGY_FILE).isEmpty() && linksFree) {
      MeasuredPlatform m = MeasuredPlatform.of(e, conf).orElse(null);
      LinkModel old = p.links();
      if (m != null && (m.k() != old.k() || movedBeyond(old.baseSpeed(), m.baseSpeed()))) {
        LOG.info(
            "wan-shuffle auto rates / k: plans from now on use the measured k = {},"
                + " base speed {} B/s (backbone {} B/s, slowest NIC {} B/s) instead of k = {}, base"
                + " speed {} B/s ({} flows measured)",
            m.k(),
            m.baseSpeed(),
            fmt(m.backboneRate()),
            fmt(m.slowestNicRate()),
            old.k(),
            old.baseSpeed(),
            e.flows());
        p = p.withLinks(m.links(conf, clusterOf));
        relinked = true;
      }
    }
    current = p;
    return relinked;
  }

  /**
   * @param inUse the value plans use
   * @param measured the measured value
   * @return true when {@code measured} differs from {@code inUse} by more than {@link
   *     #AUTO_SWITCH_CHANGE} of {@code inUse} (any difference when {@code inUse} is 0)
   */
  public static boolean movedBeyond(double inUse, double measured) {
    if (inUse == 0) {
      return measured != 0;
    }
    return Math.abs(measured - inUse) > AUTO_SWITCH_CHANGE * Math.abs(inUse);
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.4g", v);
  }
}
