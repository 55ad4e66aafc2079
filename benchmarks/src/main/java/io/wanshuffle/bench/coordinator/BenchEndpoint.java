package io.wanshuffle.bench.coordinator;

import io.wanshuffle.spark.coordinator.StepCoordinator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.rpc.RpcCallContext;
import org.apache.spark.rpc.RpcEnv;
import org.apache.spark.rpc.ThreadSafeRpcEndpoint;
import scala.Function1;
import scala.PartialFunction;
import scala.runtime.AbstractPartialFunction;
import scala.runtime.BoxedUnit;

/**
 * The driver side of the harness's own messages in rpc mode ({@link BenchMessages}): holds every
 * client's {@code Ready} until all are connected, then submits the stage and lets them start; turns
 * task launches and ends into the calls the driver listener makes.
 */
final class BenchEndpoint implements ThreadSafeRpcEndpoint {
  private final RpcEnv rpcEnv;
  private final StepCoordinator coordinator;
  private final StageSpec stage;
  private final int clients;
  private final List<RpcCallContext> waiting = new ArrayList<>();
  private final CompletableFuture<Long> started = new CompletableFuture<>();

  /**
   * @param rpcEnv the driver's RpcEnv
   * @param coordinator the coordinator
   * @param stage the stage
   * @param clients client JVMs to wait for
   */
  BenchEndpoint(RpcEnv rpcEnv, StepCoordinator coordinator, StageSpec stage, int clients) {
    this.rpcEnv = rpcEnv;
    this.coordinator = coordinator;
    this.stage = stage;
    this.clients = clients;
  }

  /**
   * @return completed with {@code System.nanoTime()} when the stage started
   */
  CompletableFuture<Long> started() {
    return started;
  }

  @Override
  public RpcEnv rpcEnv() {
    return rpcEnv;
  }

  @Override
  public PartialFunction<Object, BoxedUnit> receiveAndReply(RpcCallContext ctx) {
    return new AbstractPartialFunction<>() {
      @Override
      public boolean isDefinedAt(Object msg) {
        return msg instanceof BenchMessages.Ready;
      }

      @Override
      @SuppressWarnings("unchecked")
      public <A1, B1> B1 applyOrElse(A1 msg, Function1<A1, B1> dflt) {
        if (!(msg instanceof BenchMessages.Ready)) {
          return dflt.apply(msg);
        }
        waiting.add(ctx);
        if (waiting.size() == clients) {
          coordinator.stageSubmitted(TaskSimulator.STAGE, 0, stage.preferredHosts());
          started.complete(System.nanoTime());
          for (RpcCallContext c : waiting) {
            c.reply(Boolean.TRUE);
          }
        }
        return (B1) BoxedUnit.UNIT;
      }
    };
  }

  @Override
  public PartialFunction<Object, BoxedUnit> receive() {
    return new AbstractPartialFunction<>() {
      @Override
      public boolean isDefinedAt(Object msg) {
        return msg instanceof BenchMessages.Launched || msg instanceof BenchMessages.Ended;
      }

      @Override
      @SuppressWarnings("unchecked")
      public <A1, B1> B1 applyOrElse(A1 msg, Function1<A1, B1> dflt) {
        if (msg instanceof BenchMessages.Launched m) {
          coordinator.taskLaunched(TaskSimulator.STAGE, 0, m.taskAttemptId(), m.host());
        } else if (msg instanceof BenchMessages.Ended m) {
          coordinator.taskEnded(m.taskAttemptId());
        } else {
          return dflt.apply(msg);
        }
        return (B1) BoxedUnit.UNIT;
      }
    };
  }
}
