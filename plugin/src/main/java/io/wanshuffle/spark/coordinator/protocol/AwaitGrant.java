package io.wanshuffle.spark.coordinator.protocol;

import java.io.Serializable;

/**
 * Long-poll request for the next grant of a demand, carrying the report of the step the task just
 * finished (if any). The driver answers when the next step is granted, or after the poll interval
 * with {@link GrantReply.Status#NOT_YET}.
 *
 * @param demandId the demand
 * @param doneStepId the step the task finished since its last request, 0 if none
 * @param srcHosts source hosts of the demand (as registered)
 * @param fetchedBytes bytes fetched from each source host in {@code doneStepId} (zeros if none)
 * @param remainingBytes bytes still to fetch from each source host after that step
 * @param startMs when the task started fetching the step, epoch ms (0 if none)
 * @param endMs when its last block of the step arrived, epoch ms; 0 if none, or if the step is
 *     reported ahead of its end (predicted hand-over: its blocks are all requested, and the time
 *     its last one arrived follows in a {@link FlowArrived})
 * @param idle true when the task will not start a grant of this demand now: it waits for a grant of
 *     another shuffle it reads (a sort-merge join reads two shuffles interleaved), or it reads
 *     slower than the network and has not yet taken up the step opened ahead for it (the reader
 *     hands the grant back): the coordinator then takes back a grant the task has not started
 *     ({@code doneStepId} reports such a grant with zero fetched bytes) and plans the demand again
 *     only after a poll with {@code idle = false}
 * @param stalledMs when {@code doneStepId} is reported ahead because its flows stalled: how long
 *     its requested bytes went without advancing, ms ({@code spark.wanshuffle.flow.stallTimeout});
 *     0 otherwise. The coordinator re-plans the ports at once and leaves the flow out of its rate
 *     measurements.
 */
public record AwaitGrant(
    long demandId,
    long doneStepId,
    String[] srcHosts,
    long[] fetchedBytes,
    long[] remainingBytes,
    long startMs,
    long endMs,
    boolean idle,
    long stalledMs)
    implements Serializable {

  /**
   * A report that is not a stall ({@code stalledMs = 0}).
   *
   * @param demandId the demand
   * @param doneStepId the step the task finished since its last request, 0 if none
   * @param srcHosts source hosts of the demand (as registered)
   * @param fetchedBytes bytes fetched from each source host in {@code doneStepId}
   * @param remainingBytes bytes still to fetch from each source host after that step
   * @param startMs when the task started fetching the step, epoch ms (0 if none)
   * @param endMs when its last block of the step arrived, epoch ms (0 if none or reported ahead)
   * @param idle true when the task will not start a grant of this demand now
   */
  public AwaitGrant(
      long demandId,
      long doneStepId,
      String[] srcHosts,
      long[] fetchedBytes,
      long[] remainingBytes,
      long startMs,
      long endMs,
      boolean idle) {
    this(demandId, doneStepId, srcHosts, fetchedBytes, remainingBytes, startMs, endMs, idle, 0);
  }

  /**
   * A request from a task reading this demand's shuffle ({@code idle = false}).
   *
   * @param demandId the demand
   * @param doneStepId the step the task finished since its last request, 0 if none
   * @param srcHosts source hosts of the demand (as registered)
   * @param fetchedBytes bytes fetched from each source host in {@code doneStepId}
   * @param remainingBytes bytes still to fetch from each source host after that step
   * @param startMs when the task started fetching the step, epoch ms (0 if none)
   * @param endMs when its last block of the step arrived, epoch ms (0 if none)
   */
  public AwaitGrant(
      long demandId,
      long doneStepId,
      String[] srcHosts,
      long[] fetchedBytes,
      long[] remainingBytes,
      long startMs,
      long endMs) {
    this(demandId, doneStepId, srcHosts, fetchedBytes, remainingBytes, startMs, endMs, false);
  }

  /**
   * @return true when this reports a step whose blocks are still arriving (predicted hand-over):
   *     {@code doneStepId != 0} and {@code endMs == 0}
   */
  public boolean reportsAhead() {
    return doneStepId != 0 && endMs == 0;
  }

  /**
   * @param demandId the demand
   * @return a request without a step report saying the task does not read this shuffle now
   */
  public static AwaitGrant idle(long demandId) {
    return new AwaitGrant(demandId, 0, new String[0], new long[0], new long[0], 0, 0, true);
  }

  /**
   * @param demandId the demand
   * @return a request without a step report (the first poll, or a re-poll after NOT_YET)
   */
  public static AwaitGrant poll(long demandId) {
    return new AwaitGrant(demandId, 0, new String[0], new long[0], new long[0], 0, 0);
  }
}
