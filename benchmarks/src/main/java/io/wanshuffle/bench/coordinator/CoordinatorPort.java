package io.wanshuffle.bench.coordinator;

import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import java.util.concurrent.CompletableFuture;

/**
 * How the simulated reduce tasks reach the coordinator: the reader's two calls (each one RPC
 * message) and the driver listener's task events (Spark's own messages, not counted). {@link
 * InProcessPort} calls the coordinator directly, {@link RpcPort} goes through Spark's RPC.
 */
interface CoordinatorPort {
  /**
   * @param m a task's demand
   * @return the registration, with the answer to its first poll when gated
   */
  CompletableFuture<Registered> register(RegisterDemand m);

  /**
   * @param m a poll or a step's report
   * @return the answer: a grant, not yet, finished or ungated
   */
  CompletableFuture<GrantReply> await(AwaitGrant m);

  /**
   * @param stageId the task's stage
   * @param taskAttemptId the task
   * @param host its host
   */
  void taskLaunched(int stageId, long taskAttemptId, String host);

  /**
   * @param taskAttemptId a task that ended
   */
  void taskEnded(long taskAttemptId);
}
