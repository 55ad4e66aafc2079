package io.wanshuffle.spark.capture;

import java.util.List;
import org.apache.spark.scheduler.SparkListenerEvent;

/**
 * SparkListener event posted on the driver's listener bus when a step is over: lands in the event
 * log (Spark serialises it with Jackson, the class name in the {@code Event} field) and reaches
 * {@code SparkListener.onOtherEvent}. The History Server replays it when the plugin jar is on its
 * class path.
 *
 * @param appId application id
 * @param stepId step number
 * @param planId plan it came from
 * @param flows granted host pairs with byte budgets
 * @param grantedAtMs grant time, epoch ms
 * @param deadlineMs deadline, epoch ms
 * @param endMs end, epoch ms
 * @param deadlinePassed true if the deadline closed the step
 * @param realisedBytes bytes reported fetched under the step by the time it ended
 * @param backboneUtilisation realisedBytes / (backbone rate x step duration); 0..1 on a correct
 *     platform description
 */
public record WanShuffleStepCompleted(
    String appId,
    long stepId,
    long planId,
    List<StepCapture.Grant> flows,
    long grantedAtMs,
    long deadlineMs,
    long endMs,
    boolean deadlinePassed,
    long realisedBytes,
    double backboneUtilisation)
    implements SparkListenerEvent {

  /**
   * @return the step as a {@link StepCapture}
   */
  public StepCapture toCapture() {
    return new StepCapture(
        stepId,
        planId,
        flows == null ? List.of() : flows,
        grantedAtMs,
        deadlineMs,
        endMs,
        deadlinePassed,
        realisedBytes);
  }
}
