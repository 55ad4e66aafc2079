package io.wanshuffle.spark.coordinator.event;

import java.util.List;

/**
 * A reduce task attempt's cross-cluster demand as registered.
 *
 * @param demandId the coordinator's id for this demand (unique in the application)
 * @param stage stage attempt of the reduce task
 * @param shuffleId the shuffle being read
 * @param taskAttemptId Spark's task attempt id (a speculative copy has its own id and demand)
 * @param executorId executor running the task
 * @param dstHost the receiving host (where the task runs)
 * @param srcHosts source hosts, one per entry of {@code bytes}
 * @param bytes bytes the task must fetch from each source host, each &gt; 0
 * @param atMs registration time, epoch ms
 */
public record DemandEvent(
    long demandId,
    StageRef stage,
    int shuffleId,
    long taskAttemptId,
    String executorId,
    String dstHost,
    List<String> srcHosts,
    long[] bytes,
    long atMs) {

  /**
   * @return total bytes of the demand
   */
  public long totalBytes() {
    long s = 0;
    for (long b : bytes) {
      s += b;
    }
    return s;
  }
}
