package io.wanshuffle.bench.coordinator;

import java.io.Serializable;

/**
 * The harness's own messages between the client JVMs and the driver in rpc mode, on the driver's
 * {@value #ENDPOINT} endpoint: they stand for what Spark's scheduler does (launching tasks, their
 * status updates) and are not counted as the coordinator's messages.
 */
final class BenchMessages {
  /** The harness's endpoint on the driver's RpcEnv. */
  static final String ENDPOINT = "wan-shuffle-bench";

  private BenchMessages() {}

  /**
   * A client JVM is ready for a stage; answered when every client is, and the stage starts.
   *
   * @param client the client's index
   * @param stageId {@link TaskSimulator#WARMUP_STAGE} or {@link TaskSimulator#STAGE}
   */
  record Ready(int client, int stageId) implements Serializable {}

  /**
   * A task was launched (the driver listener's task start).
   *
   * @param stageId the task's stage
   * @param taskAttemptId the task
   * @param host its host
   */
  record Launched(int stageId, long taskAttemptId, String host) implements Serializable {}

  /**
   * A task ended (the driver listener's task end).
   *
   * @param taskAttemptId the task
   */
  record Ended(long taskAttemptId) implements Serializable {}
}
