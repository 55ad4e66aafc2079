package io.wanshuffle.spark.coordinator.protocol;

import java.io.Serializable;

/**
 * Long-poll request for the next grant of a demand, carrying the report of the step the task
 * just finished (if any). The driver answers when the next step is granted, or after the poll
 * interval with {@link GrantReply.Status#NOT_YET}.
 *
 * @param demandId the demand
 * @param doneStepId the step the task finished since its last request, 0 if none
 * @param srcHosts source hosts of the demand (as registered)
 * @param fetchedBytes bytes fetched from each source host in {@code doneStepId} (zeros if none)
 * @param remainingBytes bytes still to fetch from each source host after that step
 * @param startMs when the task started fetching the step, epoch ms (0 if none)
 * @param endMs when its last block of the step arrived, epoch ms (0 if none)
 */
public record AwaitGrant(long demandId, long doneStepId, String[] srcHosts, long[] fetchedBytes,
    long[] remainingBytes, long startMs, long endMs) implements Serializable {

  /**
   * @param demandId the demand
   * @return a request without a step report (the first poll, or a re-poll after NOT_YET)
   */
  public static AwaitGrant poll(long demandId) {
    return new AwaitGrant(demandId, 0, new String[0], new long[0], new long[0], 0, 0);
  }
}
