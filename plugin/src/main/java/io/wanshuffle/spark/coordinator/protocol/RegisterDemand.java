package io.wanshuffle.spark.coordinator.protocol;

import java.io.Serializable;

/**
 * A reduce task attempt's cross-cluster demand.
 *
 * @param stageId stage of the task
 * @param stageAttempt stage attempt number
 * @param shuffleId shuffle read
 * @param taskAttemptId Spark's task attempt id
 * @param executorId executor running the task
 * @param dstHost host of the task (receiver)
 * @param srcHosts cross-cluster source hosts, distinct
 * @param bytes bytes to fetch from each source host (block sizes as the MapOutputTracker reports
 *     them), each &gt; 0, same length as {@code srcHosts}
 */
public record RegisterDemand(
    int stageId,
    int stageAttempt,
    int shuffleId,
    long taskAttemptId,
    String executorId,
    String dstHost,
    String[] srcHosts,
    long[] bytes)
    implements Serializable {
  /**
   * @throws IllegalArgumentException if the arrays differ in length or a byte count is not positive
   */
  public RegisterDemand {
    if (srcHosts.length != bytes.length) {
      throw new IllegalArgumentException(
          srcHosts.length + " source hosts but " + bytes.length + " byte counts");
    }
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] <= 0) {
        throw new IllegalArgumentException(
            "demand from " + srcHosts[i] + " must be > 0 bytes, got " + bytes[i]);
      }
    }
  }
}
