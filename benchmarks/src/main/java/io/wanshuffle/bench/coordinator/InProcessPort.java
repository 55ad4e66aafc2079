package io.wanshuffle.bench.coordinator;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.coordinator.StepCoordinator;
import io.wanshuffle.spark.coordinator.event.CoordinatorTimer;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The coordinator's own API as the RPC endpoint uses it: a gated registration is answered with its
 * first poll, and a parked poll is answered "not yet" after {@code grant.pollInterval} ({@code
 * StepCoordinator.pollExpired}). Counts the CPU time the calling threads spend inside the
 * coordinator.
 */
final class InProcessPort implements CoordinatorPort {
  private final StepCoordinator coordinator;
  private final CoordinatorTimer pollTimer;
  private final long pollMs;
  private final LongAdder cpuNanos = new LongAdder();
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

  /**
   * @param coordinator the coordinator
   * @param pollTimer expires parked polls (a thread named {@code wan-shuffle-*})
   */
  InProcessPort(StepCoordinator coordinator, CoordinatorTimer pollTimer) {
    this.coordinator = coordinator;
    this.pollTimer = pollTimer;
    this.pollMs = coordinator.conf().get(Settings.POLL_INTERVAL);
  }

  /**
   * @return CPU time the calling threads spent inside the coordinator, ns
   */
  long cpuNanos() {
    return cpuNanos.sum();
  }

  private <T> T timed(Supplier<T> call) {
    long t0 = threads.getCurrentThreadCpuTime();
    try {
      return call.get();
    } finally {
      cpuNanos.add(threads.getCurrentThreadCpuTime() - t0);
    }
  }

  @Override
  public CompletableFuture<Registered> register(RegisterDemand m) {
    return timed(
        () -> {
          Registered reg = coordinator.register(m);
          if (!reg.opensGatedDemand()) {
            return CompletableFuture.completedFuture(reg);
          }
          CompletableFuture<GrantReply> first =
              expiring(reg.demandId(), coordinator.awaitGrant(AwaitGrant.poll(reg.demandId())));
          return first.thenApply(g -> reg.withFirstPoll(g, 0));
        });
  }

  @Override
  public CompletableFuture<GrantReply> await(AwaitGrant m) {
    return timed(() -> expiring(m.demandId(), coordinator.awaitGrant(m)));
  }

  private CompletableFuture<GrantReply> expiring(long demandId, CompletableFuture<GrantReply> f) {
    if (!f.isDone()) {
      CoordinatorTimer.Cancellable x =
          pollTimer.schedule(() -> coordinator.pollExpired(demandId, f), pollMs);
      f.whenComplete((r, e) -> x.cancel());
    }
    return f;
  }

  @Override
  public void taskLaunched(int stageId, long taskAttemptId, String host) {
    timed(
        () -> {
          coordinator.taskLaunched(stageId, 0, taskAttemptId, host);
          return null;
        });
  }

  @Override
  public void taskEnded(long taskAttemptId) {
    timed(
        () -> {
          coordinator.taskEnded(taskAttemptId);
          return null;
        });
  }
}
