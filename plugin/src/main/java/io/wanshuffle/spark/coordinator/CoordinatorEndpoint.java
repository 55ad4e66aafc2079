package io.wanshuffle.spark.coordinator;

import io.wanshuffle.spark.compat.ScalaHandlers;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.coordinator.event.CoordinatorTimer;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.FlowArrived;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.NoCrossClusterDemand;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.coordinator.protocol.ReleaseDemand;
import io.wanshuffle.spark.coordinator.protocol.UngatedReport;
import io.wanshuffle.spark.coordinator.protocol.WireCodec;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.spark.rpc.RpcCallContext;
import org.apache.spark.rpc.RpcEnv;
import org.apache.spark.rpc.ThreadSafeRpcEndpoint;
import scala.PartialFunction;
import scala.runtime.BoxedUnit;

/**
 * Thin Spark RPC glue around a {@link StepCoordinator}, registered on the driver's {@code
 * SparkEnv.rpcEnv()} under {@value #NAME}. It uses Spark's RPC (so {@code spark.authenticate} and
 * {@code spark.network.crypto.enabled} apply) and opens no port of its own.
 *
 * <p>{@link AwaitGrant} is a long-poll: the reply is sent later, from whichever thread grants the
 * step, or after {@code spark.wanshuffle.grant.pollInterval} with {@code NOT_YET}. A gated {@link
 * RegisterDemand} is answered the same way, as the demand's first poll ({@link
 * Registered#firstPoll}). This is why the coordinator is a {@link ThreadSafeRpcEndpoint} of its own
 * and not a {@code DriverPlugin}, whose single shared dispatcher thread cannot reply later.
 */
public final class CoordinatorEndpoint implements ThreadSafeRpcEndpoint {
  /** Endpoint name on the driver's RpcEnv. */
  public static final String NAME = "wan-shuffle-step-coordinator";

  private final RpcEnv rpcEnv;
  private final StepCoordinator coordinator;
  private final CoordinatorTimer pollTimer;

  /**
   * @param rpcEnv the driver's RpcEnv
   * @param coordinator the coordinator logic
   * @param pollTimer timer for long-poll expiry
   */
  public CoordinatorEndpoint(
      RpcEnv rpcEnv, StepCoordinator coordinator, CoordinatorTimer pollTimer) {
    this.rpcEnv = rpcEnv;
    this.coordinator = coordinator;
    this.pollTimer = pollTimer;
  }

  @Override
  public RpcEnv rpcEnv() {
    return rpcEnv;
  }

  @Override
  public PartialFunction<Object, BoxedUnit> receiveAndReply(RpcCallContext ctx) {
    return ScalaHandlers.of(
        msg -> msg instanceof RegisterDemand || msg instanceof AwaitGrant,
        msg -> {
          if (msg instanceof RegisterDemand m) {
            register(ctx, m);
          } else {
            AwaitGrant m = (AwaitGrant) msg;
            replyWhenAnswered(ctx, m.demandId(), coordinator.awaitGrant(m), WireCodec::encode);
          }
        });
  }

  /**
   * Registers a demand; a gated one is held as the demand's first poll, so that the task gets its
   * first grant one round trip sooner.
   */
  private void register(RpcCallContext ctx, RegisterDemand m) {
    Registered reg = coordinator.register(m);
    if (!reg.opensGatedDemand()) {
      ctx.reply(WireCodec.encode(reg));
      return;
    }
    long received = System.nanoTime();
    CompletableFuture<GrantReply> first = coordinator.awaitGrant(AwaitGrant.poll(reg.demandId()));
    replyWhenAnswered(
        ctx,
        reg.demandId(),
        first,
        g -> WireCodec.encode(reg.withFirstPoll(g, (System.nanoTime() - received) / 1_000_000)));
  }

  /**
   * Replies to a long-poll now if its answer is known, else when a grant completes it or after the
   * poll interval with {@code NOT_YET}.
   */
  private void replyWhenAnswered(
      RpcCallContext ctx,
      long demandId,
      CompletableFuture<GrantReply> f,
      Function<GrantReply, byte[]> encode) {
    if (f.isDone()) {
      ctx.reply(encode.apply(f.join()));
      return;
    }
    CoordinatorTimer.Cancellable expiry =
        pollTimer.schedule(
            () -> coordinator.pollExpired(demandId, f),
            coordinator.conf().get(Settings.POLL_INTERVAL));
    f.whenComplete(
        (r, e) -> {
          expiry.cancel();
          if (e != null) {
            ctx.sendFailure(e);
          } else {
            ctx.reply(encode.apply(r));
          }
        });
  }

  @Override
  public PartialFunction<Object, BoxedUnit> receive() {
    return ScalaHandlers.of(
        msg ->
            msg instanceof ReleaseDemand
                || msg instanceof UngatedReport
                || msg instanceof FlowArrived
                || msg instanceof NoCrossClusterDemand,
        msg -> {
          if (msg instanceof ReleaseDemand m) {
            coordinator.release(m.demandId(), m.reason());
          } else if (msg instanceof UngatedReport m) {
            coordinator.ungatedRealised(m);
          } else if (msg instanceof FlowArrived m) {
            coordinator.flowArrived(m);
          } else if (msg instanceof NoCrossClusterDemand m) {
            coordinator.noCrossClusterDemand(
                m.stageId(), m.stageAttempt(), m.taskAttemptId(), m.host());
          }
        });
  }

  @Override
  public void onStop() {
    coordinator.stop();
    pollTimer.shutdown();
  }
}
