package io.wanshuffle.it.job;

import java.util.Arrays;
import java.util.List;

/**
 * What one measured run of a job produced.
 *
 * @param answer the query answer, one line per result row, sorted (compared exactly between shuffle
 *     managers)
 * @param mapStageStartMs first map stage submitted, epoch ms (driver clock)
 * @param mapStageEndMs last map stage completed, epoch ms
 * @param reduceStageStartMs reduce (result) stage submitted, epoch ms
 * @param reduceStageEndMs reduce stage completed, epoch ms
 * @param reduceTasks successful reduce tasks
 * @param fetchWaitMs sum over reduce tasks of the shuffle fetch wait time, ms
 * @param remoteBytesRead sum over reduce tasks of remote shuffle bytes read
 * @param localBytesRead sum over reduce tasks of local shuffle bytes read
 * @param remoteBytesReadToDisk sum over reduce tasks of the remote shuffle bytes Spark fetched to
 *     disk (requests above {@code spark.network.maxRemoteBlockSizeFetchToMem}; Spark's {@code
 *     remoteBytesReadToDisk})
 * @param senders map-side hosts of the traffic matrix (rows)
 * @param receivers reduce-side hosts (columns)
 * @param matrixBytes shuffle bytes from sender host to receiver host, from the map output
 *     statistics ({@code [senders][receivers]}); Spark keeps each block's size rounded up to a
 *     power of 1.1 ({@code CompressedMapStatus}), so cells overstate the bytes by up to 10 %
 * @param senderBytes shuffle bytes written by each sender host's map tasks, exact (task metrics),
 *     {@code [senders]}
 * @param receiverBytes remote shuffle bytes read by each receiver host's successful reduce tasks,
 *     exact (task metrics), {@code [receivers]}
 * @param tasks reduce tasks as (host, launch epoch ms, finish epoch ms) for the Gantt chart
 * @param failedTasks reduce-side task attempts that failed (for example on a killed executor)
 */
public record RunResult(
    List<String> answer,
    long mapStageStartMs,
    long mapStageEndMs,
    long reduceStageStartMs,
    long reduceStageEndMs,
    int reduceTasks,
    long fetchWaitMs,
    long remoteBytesRead,
    long localBytesRead,
    long remoteBytesReadToDisk,
    List<String> senders,
    List<String> receivers,
    long[][] matrixBytes,
    long[] senderBytes,
    long[] receiverBytes,
    List<TaskSpan> tasks,
    int failedTasks) {

  /**
   * One reduce task attempt.
   *
   * @param host executor host
   * @param partition reduce partition
   * @param launchMs launch time, epoch ms
   * @param finishMs finish time, epoch ms
   * @param cpuMs CPU time of the task's thread while it ran (Spark's {@code executorCpuTime}), ms;
   *     0 when unknown
   */
  public record TaskSpan(String host, int partition, long launchMs, long finishMs, long cpuMs) {}

  /**
   * @return CPU time of the successful reduce tasks' threads, summed (Spark's {@code
   *     executorCpuTime}), seconds; with the reduce stage's duration and the reduce hosts' cores it
   *     tells whether the stage was CPU-bound
   */
  public double reduceCpuSeconds() {
    return tasks == null ? 0 : tasks.stream().mapToLong(TaskSpan::cpuMs).sum() / 1000.0;
  }

  /**
   * @return reduce stage duration, seconds
   */
  public double reduceSeconds() {
    return (reduceStageEndMs - reduceStageStartMs) / 1000.0;
  }

  /**
   * @return the traffic matrix of the run, {@code [senders][receivers]} bytes: the map output
   *     statistics' cells fitted to the exact per-host bytes of the task metrics ({@link
   *     MarginalFit}); the map statistics alone when the run has no per-host metrics
   */
  public long[][] trafficMatrix() {
    if (senderBytes == null || receiverBytes == null) {
      return matrixBytes;
    }
    return MarginalFit.fit(matrixBytes, senderBytes, receiverBytes);
  }

  /**
   * @return total cross-cluster shuffle bytes: the remote bytes the receivers read (exact; the
   *     total of {@link #trafficMatrix()} without fitting it), or the map statistics' total when
   *     the run has no per-host metrics
   */
  public long matrixTotal() {
    if (receiverBytes != null) {
      return Arrays.stream(receiverBytes).sum();
    }
    return Arrays.stream(matrixBytes).flatMapToLong(Arrays::stream).sum();
  }
}
