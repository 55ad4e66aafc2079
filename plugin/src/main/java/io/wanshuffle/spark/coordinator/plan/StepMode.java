package io.wanshuffle.spark.coordinator.plan;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.demand.PendingTasks;
import io.wanshuffle.spark.coordinator.matrix.DemandMatrix;
import io.wanshuffle.spark.coordinator.matrix.ResidualScope;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import java.util.List;

/**
 * How steps follow each other: the one place where barrier and pipelined steps differ ({@code
 * spark.wanshuffle.step.mode}).
 *
 * <ul>
 *   <li>{@link BarrierSteps}: the papers' KPBS model (GGP/OGGP paper sec. 2): the next step is
 *       planned and granted when every receiver of the current one reported or its deadline passed;
 *       each plan is made on the free capacity and only its first step is granted; k counts both
 *       directions of the backbone together.
 *   <li>{@link PipelinedSteps}: a port whose flow ended takes the plan's next transfer at once
 *       (list scheduling of the plan, bottleneck ports first); plans are made on the whole
 *       platform, k per direction of the backbone; a free flow may be kept for a bottleneck
 *       receiver whose task is about to register.
 * </ul>
 *
 * <p>Implementations are stateless; called under the coordinator's lock.
 */
public interface StepMode extends ResidualScope {

  /**
   * @param conf the validated configuration
   * @return the mode it names
   */
  static StepMode of(WanShuffleConf conf) {
    return Settings.BARRIER.equals(conf.get(Settings.STEP_MODE))
        ? new BarrierSteps()
        : new PipelinedSteps();
  }

  /**
   * @param stepsRunning whether a granted step is running
   * @return true when a plan may be made now (barrier steps: no step is running)
   */
  boolean mayPlan(boolean stepsRunning);

  /**
   * @param stepsRunning whether a granted step is running
   * @param leases the open flows
   * @return true when nothing is running, so a new registration starts a wave that the gather
   *     window collects before the first plan
   */
  boolean idle(boolean stepsRunning, FlowLeases leases);

  /**
   * @return true when a registration while flows run asks for a plan at once (pipelined: its bytes
   *     may take the next free port); false when it waits for the next step boundary
   */
  boolean plansOnEveryRegistration();

  /**
   * @param leases the open flows
   * @return true when the free capacity admits a new flow at all
   */
  boolean hasCapacity(FlowLeases leases);

  /**
   * @param plan a plan of the residual demand (non-empty)
   * @return the steps whose transfers may be granted now
   */
  List<Step> stepsToGrant(Schedule plan);

  /**
   * @param steps the steps to grant ({@link #stepsToGrant})
   * @param matrix the instance they were planned on
   * @param expected what the tasks still to launch are expected to fetch
   * @return the transfers in the order the step assembler offers them free ports
   */
  List<BottleneckFirstOrder.Ranked> order(
      List<Step> steps, DemandMatrix matrix, PendingTasks.Estimate expected);

  /**
   * @param leases the open flows
   * @return true when the step being assembled can take no more flow at all
   */
  boolean stepFull(FlowLeases leases);

  /**
   * @return true when a free flow may be kept for a bottleneck receiver about to register
   */
  boolean keepsFlows();

  /**
   * @param k flows per step
   * @param betaSeconds β, seconds
   * @param senders the plan's sending hosts, by row
   * @param receivers the plan's receiving hosts, by column
   * @param sendPorts the flows a sending host may open in the plan
   * @param receivePorts the flows a receiving host may open in the plan
   * @return the platform
   */
  static Platform platformOf(
      int k,
      double betaSeconds,
      String[] senders,
      String[] receivers,
      java.util.function.ToIntFunction<String> sendPorts,
      java.util.function.ToIntFunction<String> receivePorts) {
    int[] sd = new int[senders.length];
    int[] rd = new int[receivers.length];
    for (int i = 0; i < sd.length; i++) {
      sd[i] = sendPorts.applyAsInt(senders[i]);
    }
    for (int j = 0; j < rd.length; j++) {
      rd[j] = receivePorts.applyAsInt(receivers[j]);
    }
    return Platform.of(k, betaSeconds, sd, rd);
  }
}
