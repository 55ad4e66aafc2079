package io.wanshuffle.spark.coordinator.demand;

import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.event.StageSummary;
import io.wanshuffle.spark.coordinator.network.HostPair;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.UngatedReport;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The running stage attempts' cross-cluster accounts ({@link StageAccount}): what each registered
 * and realised per host pair, the steps that granted to it and the shuffles it read, from its first
 * demand (or ungated report) until it completes and its final traffic matrix is published.
 *
 * <p>Not thread-safe: used under the coordinator's lock.
 */
public final class StageLedger {
  private final Map<StageRef, StageAccount> stages = new HashMap<>();

  /**
   * A demand registered: its bytes count as registered on each of its host pairs.
   *
   * @param d the demand
   * @param nowMs epoch ms (opens the stage's account when it is its first demand)
   */
  public void registered(Demand d, long nowMs) {
    StageAccount acc = account(d.stage(), nowMs);
    acc.readsShuffle(d.shuffleId());
    for (int i = 0; i < d.src().length; i++) {
      acc.add(new HostPair(d.src()[i], d.dst()), d.registered()[i], 0);
    }
  }

  /**
   * A cross-cluster read that ran ungated: its bytes count as realised, and as registered too when
   * the read never registered a demand.
   *
   * @param r the report
   * @param unregistered true when no demand of the read was registered (its bytes were never
   *     counted)
   * @param nowMs epoch ms
   */
  public void ungated(UngatedReport r, boolean unregistered, long nowMs) {
    RegisterDemand m = r.demand();
    StageAccount acc = account(new StageRef(m.stageId(), m.stageAttempt()), nowMs);
    acc.readsShuffle(m.shuffleId());
    for (int i = 0; i < m.srcHosts().length; i++) {
      acc.add(
          new HostPair(m.srcHosts()[i], m.dstHost()),
          unregistered ? m.bytes()[i] : 0,
          m.bytes()[i]);
    }
  }

  /**
   * @param stage a stage attempt
   * @return its account, or null when it has none (no demand yet, or completed)
   */
  public StageAccount get(StageRef stage) {
    return stages.get(stage);
  }

  /**
   * Counts one more step for each stage that received a part of it.
   *
   * @param stagesOfStep the stage attempts of the step's receivers
   */
  public void stepGranted(Set<StageRef> stagesOfStep) {
    for (StageRef sr : stagesOfStep) {
      StageAccount acc = stages.get(sr);
      if (acc != null) {
        acc.stepGranted();
      }
    }
  }

  /**
   * Closes a completed stage's account.
   *
   * @param stage the stage attempt
   * @param endMs its completion, epoch ms
   * @return its final matrices, or null when it had no cross-cluster traffic
   */
  public StageSummary complete(StageRef stage, long endMs) {
    StageAccount acc = stages.remove(stage);
    return acc == null ? null : acc.summary(endMs);
  }

  @Override
  public String toString() {
    return Arrays.toString(stages.keySet().toArray());
  }

  private StageAccount account(StageRef stage, long nowMs) {
    return stages.computeIfAbsent(stage, s -> new StageAccount(s, nowMs));
  }
}
