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
 * client's {@code Ready} for a stage until all are connected, then submits the stage and lets them
 * start (the warm-up stage, when there is one, completed first); turns task launches and ends into
 * the calls the driver listener makes.
 */
final class BenchEndpoint implements ThreadSafeRpcEndpoint {
  private final RpcEnv rpcEnv;
  private final StepCoordinator coordinator;
  private final StageSpec stage;
  private final StageSpec warmup;
  private final Runnable onMeasuredStage;
  private final int clients;
  private final List<RpcCallContext> waiting = new ArrayList<>();
  private final CompletableFuture<Long> started = new CompletableFuture<>();

  /**
   * @param rpcEnv the driver's RpcEnv
   * @param coordinator the coordinator
   * @param stage the measured stage
   * @param warmup the warm-up stage, null when none
   * @param onMeasuredStage run just before the measured stage is submitted
   * @param clients client JVMs to wait for
   */
  BenchEndpoint(
      RpcEnv rpcEnv,
      StepCoordinator coordinator,
      StageSpec stage,
      StageSpec warmup,
      Runnable onMeasuredStage,
      int clients) {
    this.rpcEnv = rpcEnv;
    this.coordinator = coordinator;
    this.stage = stage;
    this.warmup = warmup;
    this.onMeasuredStage = onMeasuredStage;
    this.clients = clients;
  }

  /**
   * @return completed with {@code System.nanoTime()} when the measured stage started
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
        if (!(msg instanceof BenchMessages.Ready ready)) {
          return dflt.apply(msg);
        }
        waiting.add(ctx);
        if (waiting.size() == clients) {
          if (ready.stageId() == TaskSimulator.WARMUP_STAGE) {
            coordinator.stageSubmitted(TaskSimulator.WARMUP_STAGE, 0, warmup.preferredHosts());
          } else {
            if (warmup != null) {
              coordinator.stageCompleted(TaskSimulator.WARMUP_STAGE, 0);
            }
            onMeasuredStage.run();
            coordinator.stageSubmitted(TaskSimulator.STAGE, 0, stage.preferredHosts());
            started.complete(System.nanoTime());
          }
          for (RpcCallContext c : waiting) {
            c.reply(Boolean.TRUE);
          }
          waiting.clear();
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
          coordinator.taskLaunched(m.stageId(), 0, m.taskAttemptId(), m.host());
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
