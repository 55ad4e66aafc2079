package io.wanshuffle.spark.coordinator;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the coordinator says in the driver log: one INFO line per granted step and per completed
 * stage (with its cross-cluster traffic matrix), ERROR when a barrier plan broke k or δ, and at
 * DEBUG why a flow was kept for an awaited receiver or granted while receivers were awaited. The
 * logger is {@code io.wanshuffle.spark.coordinator.StepCoordinator}, so one logger setting covers
 * the coordinator's lines.
 */
final class CoordinatorLog {
  private static final Logger LOG = LoggerFactory.getLogger(StepCoordinator.class);

  private CoordinatorLog() {}

  /**
   * @param ev a granted step
   * @param algorithm the scheduler that planned it
   * @param receivers demands granted a part of it
   * @param openFlows flows open now, the step's included
   */
  static void stepGranted(StepEvent ev, String algorithm, int receivers, int openFlows) {
    if (!LOG.isInfoEnabled()) {
      return;
    }
    StringBuilder f = new StringBuilder();
    for (FlowGrant g : ev.flows()) {
      f.append(f.length() == 0 ? "" : ", ")
          .append(g.srcHost())
          .append("->")
          .append(g.dstHost())
          .append(' ')
          .append(g.bytes())
          .append(" B");
    }
    LOG.info(
        "wan-shuffle step {} (plan {}, {}): {} flow(s) [{}] to {} task(s), {} flow(s) still open"
            + " from earlier steps, deadline in {} ms",
        ev.stepId(),
        ev.planId(),
        algorithm,
        ev.flows().size(),
        f,
        receivers,
        openFlows - ev.flows().size(),
        ev.deadlineMs() - ev.grantedAtMs());
  }

  /**
   * @param a an assembled step
   * @param algorithm the scheduler whose plan it came from
   */
  static void decisions(StepAssembler.Assembly a, String algorithm) {
    for (StepAssembler.Decision x : a.decisions()) {
      switch (x.reason()) {
        case BEYOND_LIMITS ->
            LOG.error(
                "wan-shuffle scheduler {} put {} -> {} in a step beyond k or delta; skipped",
                algorithm,
                x.src(),
                x.dst());
        case PORTS_HELD ->
            LOG.debug(
                "{} -> {} waits: its ports are held by a flow past its step's deadline",
                x.src(),
                x.dst());
        case KEPT ->
            LOG.debug(
                "wan-shuffle: a free flow kept for {} instead of {} -> {} (port load {} B; awaited"
                    + " receivers' bytes per port {}; {} flow(s) open)",
                x.keptFor(),
                x.src(),
                x.dst(),
                (long) x.load(),
                a.awaited(),
                x.openFlows());
        case GRANTED ->
            LOG.debug(
                "wan-shuffle: {} -> {} granted (port load {} B, heaviest {} B; awaited receivers'"
                    + " bytes per port {}; {} flow(s) open)",
                x.src(),
                x.dst(),
                (long) x.load(),
                (long) a.heaviest(),
                a.awaited(),
                x.openFlows());
      }
    }
  }

  /**
   * @param s a completed stage's summary
   */
  static void stageDone(StageSummary s) {
    if (LOG.isInfoEnabled()) {
      LOG.info(
          "wan-shuffle stage {} done: {} B across clusters in {} step(s), shuffles {}; "
              + "cross-cluster traffic matrix:{}",
          s.stage(),
          StageAccount.realisedTotal(s),
          s.steps(),
          Arrays.toString(s.shuffleIds()),
          StageAccount.matrixLines(s));
    }
  }

  /**
   * One INFO line: β ({@code auto}) switched for later plans.
   *
   * @param old β planned with so far, seconds
   * @param planned β planned with from now on, seconds: the measured one, at least {@link
   *     WanShuffleConf#AUTO_BETA_FLOOR_SECONDS}
   * @param measured the measured β, seconds
   * @param flows flows the measurement holds
   */
  static void autoBeta(double old, double planned, double measured, int flows) {
    LOG.info(
        "wan-shuffle {} = auto: later shuffles plan with β {} s instead of {} s (measured {} s"
            + " over {} flows, floor {} s)",
        Settings.BETA.key(),
        fmt(planned),
        fmt(old),
        fmt(measured),
        flows,
        fmt(WanShuffleConf.AUTO_BETA_FLOOR_SECONDS));
  }

  /**
   * One INFO line: {@code k} or the rates ({@code auto}) switched to the platform of the measured
   * rates.
   *
   * @param oldK k planned with so far
   * @param oldBase base speed planned with so far, bytes/s
   * @param p the measured platform
   * @param flows flows the measurement holds
   */
  static void autoPlatform(int oldK, long oldBase, MeasuredPlatform p, int flows) {
    LOG.info(
        "wan-shuffle auto rates / k: later shuffles plan with the measured k = {},"
            + " base speed {} B/s (backbone {} B/s, slowest NIC {} B/s) instead of k = {}, base"
            + " speed {} B/s ({} flows measured)",
        p.k(),
        p.baseSpeed(),
        fmt(p.backboneRate()),
        fmt(p.slowestNicRate()),
        oldK,
        oldBase,
        flows);
  }

  private static String fmt(double v) {
    return String.format(java.util.Locale.ROOT, "%.4g", v);
  }
}
