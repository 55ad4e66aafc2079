package io.wanshuffle.bench.coordinator;

import io.wanshuffle.spark.compat.ScalaHandlers;
import io.wanshuffle.spark.coordinator.StepCoordinator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.rpc.RpcCallContext;
import org.apache.spark.rpc.RpcEnv;
import org.apache.spark.rpc.ThreadSafeRpcEndpoint;
import scala.PartialFunction;
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
    return ScalaHandlers.of(
        msg -> msg instanceof BenchMessages.Ready, msg -> ready(ctx, (BenchMessages.Ready) msg));
  }

  /** A client is ready for a stage: once every client is, the stage is submitted and they start. */
  private void ready(RpcCallContext ctx, BenchMessages.Ready ready) {
    waiting.add(ctx);
    if (waiting.size() < clients) {
      return;
    }
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

  @Override
  public PartialFunction<Object, BoxedUnit> receive() {
    return ScalaHandlers.of(
        msg -> msg instanceof BenchMessages.Launched || msg instanceof BenchMessages.Ended,
        msg -> {
          if (msg instanceof BenchMessages.Launched m) {
            coordinator.taskLaunched(m.stageId(), 0, m.taskAttemptId(), m.host());
          } else {
            coordinator.taskEnded(((BenchMessages.Ended) msg).taskAttemptId());
          }
        });
  }
}
