package io.wanshuffle.spark.coordinator.track;

import io.wanshuffle.spark.coordinator.assemble.StepAssembler;
import io.wanshuffle.spark.coordinator.event.CoordinatorLogger;
import io.wanshuffle.spark.coordinator.event.FlowGrant;
import io.wanshuffle.spark.coordinator.event.StepEvent;
import org.slf4j.Logger;

/**
 * What the coordinator says in the driver log of its grants: one INFO line per granted step, ERROR
 * when a barrier plan broke k or δ, and at DEBUG why a flow was kept for an awaited receiver or
 * granted while receivers were awaited ({@link CoordinatorLogger}).
 */
final class GrantLog {
  private static final Logger LOG = CoordinatorLogger.LOG;

  private GrantLog() {}

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
}
