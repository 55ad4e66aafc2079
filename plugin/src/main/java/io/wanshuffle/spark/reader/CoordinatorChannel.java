package io.wanshuffle.spark.reader;

import io.wanshuffle.spark.compat.ScalaFutures;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.CoordinatorEndpoint;
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
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkConf;
import org.apache.spark.rpc.RpcEndpointRef;
import org.apache.spark.rpc.RpcEnv;
import org.apache.spark.rpc.RpcTimeout;
import org.apache.spark.util.RpcUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.concurrent.duration.FiniteDuration;
import scala.reflect.ClassTag$;

/**
 * Executor-side client of the driver's step coordinator over Spark's RPC. Every call is
 * asynchronous and bounded by a per-call {@link RpcTimeout}: the driver lookup by {@code
 * coordinator.askTimeout}; registration (answered with the first poll) and a long-poll by {@code
 * grant.pollInterval + coordinator.askTimeout}. A failed lookup or call completes the returned
 * future exceptionally; the reader then falls back to ungated fetching, so no task waits on an
 * unreachable coordinator.
 *
 * <p>One instance per executor JVM; thread-safe.
 */
public final class CoordinatorChannel implements DemandClient {
  private static final Logger LOG = LoggerFactory.getLogger(CoordinatorChannel.class);

  private final SparkConf sparkConf;
  private final RpcEnv rpcEnv;
  private final WanShuffleConf conf;
  private volatile CompletableFuture<RpcEndpointRef> ref;

  /**
   * @param sparkConf executor configuration (driver host and port)
   * @param rpcEnv the executor's RpcEnv
   * @param conf wan-shuffle configuration (timeouts)
   */
  public CoordinatorChannel(SparkConf sparkConf, RpcEnv rpcEnv, WanShuffleConf conf) {
    this.sparkConf = sparkConf;
    this.rpcEnv = rpcEnv;
    this.conf = conf;
  }

  private CompletableFuture<RpcEndpointRef> ref() {
    CompletableFuture<RpcEndpointRef> r = ref;
    if (r == null || r.isCompletedExceptionally()) {
      synchronized (this) {
        r = ref;
        if (r == null || r.isCompletedExceptionally()) {
          r =
              CompletableFuture.supplyAsync(
                  () -> RpcUtils.makeDriverRef(CoordinatorEndpoint.NAME, sparkConf, rpcEnv));
          ref = r;
        }
      }
    }
    return r;
  }

  /** The wait of a registration or long-poll: the driver holds it up to the poll interval. */
  private RpcTimeout longPollTimeout() {
    long ms = conf.get(Settings.POLL_INTERVAL) + conf.get(Settings.ASK_TIMEOUT);
    return new RpcTimeout(
        FiniteDuration.apply(ms, TimeUnit.MILLISECONDS),
        Settings.POLL_INTERVAL.key() + " + " + Settings.ASK_TIMEOUT.key());
  }

  /**
   * @param m the demand
   * @return the registration, with the answer to the demand's first poll when gated (the driver
   *     holds it like a long-poll), or a failed future (coordinator unreachable, timeout)
   */
  @Override
  public CompletableFuture<Registered> register(RegisterDemand m) {
    RpcTimeout t = longPollTimeout();
    return ref()
        .orTimeout(conf.get(Settings.ASK_TIMEOUT), TimeUnit.MILLISECONDS)
        .thenCompose(
            r ->
                ScalaFutures.asJava(r.<byte[]>ask(m, t, ClassTag$.MODULE$.apply(byte[].class)))
                    .toCompletableFuture()
                    .thenApply(WireCodec::decodeRegistered));
  }

  /**
   * @param m the long-poll request (with the previous step's report)
   * @return the grant reply, or a failed future
   */
  @Override
  public CompletableFuture<GrantReply> await(AwaitGrant m) {
    RpcTimeout t = longPollTimeout();
    return ref()
        .thenCompose(
            r ->
                ScalaFutures.asJava(r.<byte[]>ask(m, t, ClassTag$.MODULE$.apply(byte[].class)))
                    .toCompletableFuture()
                    .thenApply(WireCodec::decodeGrantReply));
  }

  /**
   * One-way; failures are logged and ignored (the driver's listener also releases on task end).
   *
   * @param m the release
   */
  @Override
  public void release(ReleaseDemand m) {
    send(m);
  }

  /**
   * One-way report for the capture; failures are logged and ignored.
   *
   * @param m the report
   */
  @Override
  public void report(UngatedReport m) {
    send(m);
  }

  /**
   * One-way report for the capture (the end of a step reported ahead); failures are logged and
   * ignored.
   *
   * @param m the arrival
   */
  @Override
  public void arrived(FlowArrived m) {
    send(m);
  }

  /**
   * One-way notice that a task's read has no cross-cluster blocks, so that the coordinator does not
   * wait for its registration; failures are logged and ignored (the driver's listener reports the
   * task's end anyway).
   *
   * @param m the notice
   */
  public void noDemand(NoCrossClusterDemand m) {
    send(m);
  }

  private void send(Object m) {
    ref()
        .whenComplete(
            (r, e) -> {
              if (e != null) {
                LOG.debug(
                    "wan-shuffle: could not send {} to the coordinator",
                    m.getClass().getSimpleName(),
                    e);
              } else {
                try {
                  r.send(m);
                } catch (RuntimeException ex) {
                  LOG.debug(
                      "wan-shuffle: could not send {} to the coordinator",
                      m.getClass().getSimpleName(),
                      ex);
                }
              }
            });
  }
}
