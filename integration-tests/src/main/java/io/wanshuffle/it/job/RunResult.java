package io.wanshuffle.it.job;

import java.util.List;

/**
 * What one measured run of a job produced.
 *
 * @param answer the query answer, one line per result row, sorted (compared exactly between shuffle managers)
 * @param mapStageStartMs first map stage submitted, epoch ms (driver clock)
 * @param mapStageEndMs last map stage completed, epoch ms
 * @param reduceStageStartMs reduce (result) stage submitted, epoch ms
 * @param reduceStageEndMs reduce stage completed, epoch ms
 * @param reduceTasks successful reduce tasks
 * @param fetchWaitMs sum over reduce tasks of the shuffle fetch wait time, ms
 * @param remoteBytesRead sum over reduce tasks of remote shuffle bytes read
 * @param localBytesRead sum over reduce tasks of local shuffle bytes read
 * @param senders map-side hosts of the traffic matrix (rows)
 * @param receivers reduce-side hosts (columns)
 * @param matrixBytes shuffle bytes from sender host to receiver host, from the map output statistics
 *     ({@code [senders][receivers]})
 * @param tasks reduce tasks as (host, launch epoch ms, finish epoch ms) for the Gantt chart
 * @param failedTasks reduce-side task attempts that failed (for example on a killed executor)
 */
public record RunResult(List<String> answer, long mapStageStartMs, long mapStageEndMs, long reduceStageStartMs,
    long reduceStageEndMs, int reduceTasks, long fetchWaitMs, long remoteBytesRead, long localBytesRead,
    List<String> senders, List<String> receivers, long[][] matrixBytes, List<TaskSpan> tasks, int failedTasks) {

  /**
   * One reduce task attempt.
   *
   * @param host executor host
   * @param partition reduce partition
   * @param launchMs launch time, epoch ms
   * @param finishMs finish time, epoch ms
   */
  public record TaskSpan(String host, int partition, long launchMs, long finishMs) {}

  /** @return reduce stage duration, seconds */
  public double reduceSeconds() {
    return (reduceStageEndMs - reduceStageStartMs) / 1000.0;
  }

  /** @return total shuffle bytes of the matrix between different clusters' hosts (all entries) */
  public long matrixTotal() {
    long s = 0;
    for (long[] r : matrixBytes) {
      for (long v : r) {
        s += v;
      }
    }
    return s;
  }
}
