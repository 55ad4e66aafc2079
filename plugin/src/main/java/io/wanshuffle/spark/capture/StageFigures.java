package io.wanshuffle.spark.capture;

import java.util.Comparator;

/**
 * What an operator reads first about one gated stage, computed from its {@link StageCapture}: the
 * transfer matrix in short, the steps, the lower bound, the predicted and the measured transfer
 * time. The WAN Shuffle tab of the Spark UI and {@code ./wan-shuffle report} show these figures.
 *
 * <p>Predicted transfer time: the cost Σ(β + step duration) of the stage's first plan (the KPBS
 * cost of a schedule, GGP/OGGP paper, Cohen, Jeannot, Padoy, Wagner, sec. 2), over the residual
 * demand that plan saw ({@code plannedBytes}; it may hold other stages' bytes or miss tasks that
 * registered later). Measured transfer time: from the first grant of one of the stage's steps to
 * the end of its last step (driver clock). Lower bound: the largest over the links of registered
 * bytes / link rate ({@link LinkFigures#lowerBoundSeconds()}); unknown for captures without links
 * (older versions).
 *
 * @param stageId stage id
 * @param stageAttempt stage attempt
 * @param algorithm step scheduler
 * @param k flows per backbone direction
 * @param betaSeconds step setup delay β, seconds (0 when not recorded)
 * @param senders hosts sending cross-site bytes
 * @param receivers hosts receiving cross-site bytes
 * @param pairs host pairs with registered bytes
 * @param registeredBytes bytes registered (the transfer matrix's sum)
 * @param realisedBytes bytes fetched under grants or ungated
 * @param largestPairBytes the largest cell of the transfer matrix, bytes
 * @param steps steps granted to the stage
 * @param stepsClosedByDeadline of them, closed by their deadline
 * @param mostFlowsInAStep most host pairs one step granted
 * @param lowerBoundSeconds the lower bound, seconds (NaN without links)
 * @param bottleneckLink the link of the largest lower bound ("" without links)
 * @param predictedSeconds the first plan's cost, seconds (NaN without a plan)
 * @param plannedBytes bytes of the residual demand the first plan covered (0 without a plan)
 * @param measuredSeconds first grant to last step end, seconds (NaN without ended steps)
 * @param transferStartMs first grant, epoch ms (0 without steps)
 * @param network the measured β and link rates, the stage's transfer phase as predicted (scheduled
 *     and as Spark's default) and as measured ({@link NetworkFigures#NONE} when not recorded)
 */
public record StageFigures(
    int stageId,
    int stageAttempt,
    String algorithm,
    int k,
    double betaSeconds,
    int senders,
    int receivers,
    int pairs,
    long registeredBytes,
    long realisedBytes,
    long largestPairBytes,
    int steps,
    int stepsClosedByDeadline,
    int mostFlowsInAStep,
    double lowerBoundSeconds,
    String bottleneckLink,
    double predictedSeconds,
    long plannedBytes,
    double measuredSeconds,
    long transferStartMs,
    NetworkFigures network) {

  /**
   * @param c a stage capture
   * @return its figures
   */
  public static StageFigures of(StageCapture c) {
    HostMatrix m = c.transferMatrix();
    int pairs = 0;
    long largest = 0;
    for (long[] row : m.bytes()) {
      for (long v : row) {
        if (v > 0) {
          pairs++;
          largest = Math.max(largest, v);
        }
      }
    }
    int closed = 0;
    int mostFlows = 0;
    long firstGrant = Long.MAX_VALUE;
    long lastEnd = 0;
    for (StepCapture s : c.steps()) {
      closed += s.deadlinePassed() ? 1 : 0;
      mostFlows = Math.max(mostFlows, s.flows().size());
      firstGrant = Math.min(firstGrant, s.grantedAtMs());
      lastEnd = Math.max(lastEnd, s.endMs());
    }
    double measured =
        lastEnd > 0 && firstGrant <= lastEnd ? (lastEnd - firstGrant) / 1000.0 : Double.NaN;
    LinkFigures bottleneck =
        c.links().stream()
            .max(
                Comparator.comparingDouble(LinkFigures::lowerBoundSeconds)
                    .thenComparing(LinkFigures::link, Comparator.reverseOrder()))
            .orElse(null);
    double lower = bottleneck != null ? bottleneck.lowerBoundSeconds() : Double.NaN;
    PlanCapture first =
        c.plans().stream().min(Comparator.comparingLong(PlanCapture::planId)).orElse(null);
    long planned = first != null ? first.residualBytes().total() : 0;
    return new StageFigures(
        c.stageId(),
        c.stageAttempt(),
        c.algorithm(),
        c.k(),
        c.betaSeconds() > 0 ? c.betaSeconds() : first != null ? first.betaSeconds() : 0,
        m.senders().size(),
        m.receivers().size(),
        pairs,
        c.totalRegisteredBytes(),
        c.totalRealisedBytes(),
        largest,
        c.steps().size(),
        closed,
        mostFlows,
        lower,
        bottleneck != null ? bottleneck.link() : "",
        first != null ? first.costSeconds() : Double.NaN,
        planned,
        measured,
        firstGrant == Long.MAX_VALUE ? 0 : firstGrant,
        c.network());
  }

  /**
   * @return the stage label, {@code 3.0}
   */
  public String label() {
    return stageId + "." + stageAttempt;
  }

  /**
   * @return the measured transfer phase over its prediction as scheduled, NaN when either is
   *     missing
   */
  public double phaseOverScheduled() {
    return network.transferPhaseSeconds() / network.predictedScheduledSeconds();
  }

  /**
   * @return the measured transfer phase over its prediction as Spark's default, NaN when either is
   *     missing
   */
  public double phaseOverDefault() {
    return network.transferPhaseSeconds() / network.predictedDefaultSeconds();
  }

  /**
   * @return measured over predicted, NaN when either is missing
   */
  public double measuredOverPredicted() {
    return measuredSeconds / predictedSeconds;
  }
}
