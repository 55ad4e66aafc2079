package io.wanshuffle.it.app;

/**
 * One stage attempt of an application as its Spark event log recorded it ({@link EventLog}).
 *
 * @param stageId Spark's stage id
 * @param attempt the stage attempt
 * @param name Spark's stage name (the call site, e.g. {@code collect at Job.java:42})
 * @param tasks tasks of the attempt
 * @param submittedMs submission, epoch ms (0 if the log has none)
 * @param completedMs completion, epoch ms (0 if the stage never completed)
 * @param failureReason why the attempt failed, or null
 * @param failedTasks task attempts of the stage that did not succeed
 * @param remoteBytesRead shuffle bytes the successful tasks fetched from other executors, bytes
 * @param localBytesRead shuffle bytes they read from their own executor's or host's map output,
 *     bytes
 * @param fetchWaitMs time the successful tasks waited for shuffle blocks, summed over tasks, ms
 * @param shuffleBytesWritten shuffle bytes the successful tasks wrote (map output), bytes
 */
public record StageRun(
    int stageId,
    int attempt,
    String name,
    int tasks,
    long submittedMs,
    long completedMs,
    String failureReason,
    int failedTasks,
    long remoteBytesRead,
    long localBytesRead,
    long fetchWaitMs,
    long shuffleBytesWritten) {

  /**
   * @return true when the stage read shuffle data (it is the reduce side of a shuffle)
   */
  public boolean readsShuffle() {
    return remoteBytesRead + localBytesRead > 0;
  }

  /**
   * @return submission to completion, s (0 when either is missing)
   */
  public double seconds() {
    return submittedMs > 0 && completedMs >= submittedMs ? (completedMs - submittedMs) / 1000.0 : 0;
  }

  /**
   * @return stage id, with the attempt when it is not the first ({@code 3} or {@code 3.1})
   */
  public String label() {
    return attempt == 0 ? Integer.toString(stageId) : stageId + "." + attempt;
  }
}
