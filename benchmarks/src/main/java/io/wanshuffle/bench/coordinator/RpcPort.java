package io.wanshuffle.bench.coordinator;

import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.reader.CoordinatorChannel;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.rpc.RpcEndpointRef;

/**
 * The executors' way to the coordinator: the plugin's own {@link CoordinatorChannel} over Spark's
 * RPC (one per client JVM, shared by its simulated executors); task launches and ends go to the
 * harness's endpoint ({@link BenchMessages}).
 */
final class RpcPort implements CoordinatorPort {
  private final CoordinatorChannel channel;
  private final RpcEndpointRef bench;

  /**
   * @param channel the executor-side client of the coordinator
   * @param bench the harness's endpoint on the driver
   */
  RpcPort(CoordinatorChannel channel, RpcEndpointRef bench) {
    this.channel = channel;
    this.bench = bench;
  }

  @Override
  public CompletableFuture<Registered> register(RegisterDemand m) {
    return channel.register(m);
  }

  @Override
  public CompletableFuture<GrantReply> await(AwaitGrant m) {
    return channel.await(m);
  }

  @Override
  public void taskLaunched(int stageId, long taskAttemptId, String host) {
    bench.send(new BenchMessages.Launched(stageId, taskAttemptId, host));
  }

  @Override
  public void taskEnded(long taskAttemptId) {
    bench.send(new BenchMessages.Ended(taskAttemptId));
  }
}
