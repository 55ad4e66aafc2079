package io.wanshuffle.bench.coordinator;

import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Simulated reduce tasks of some task slots, speaking the reader's protocol with the coordinator: a
 * task is launched (the driver listener's event), registers its demand {@code startDelayMs} later
 * (the answer carries its first poll), and then, per grant, fetches each granted source's budget
 * (at most what is left) as one flow at the base speed, slowed by up to {@code jitter}, and reports
 * the step when its longest flow ends, which is its next poll; a {@code NOT_YET} answer is polled
 * again. A task whose demand is finished ends {@code endDelayMs} later, and its slot launches its
 * next task. Every call to the coordinator counts as one RPC message.
 *
 * <p>Runs on {@code exec}; answers are taken up there, never on the thread that completed them (the
 * coordinator's planner thread in-process).
 */
final class TaskSimulator {
  /** The stage id of the measured stage's tasks. */
  static final int STAGE = 1;

  /** The stage id of the warm-up stage's tasks ({@link BenchConfig#warmupTasks}). */
  static final int WARMUP_STAGE = 0;

  /** Added to a warm-up task's attempt id, so that no attempt id is used twice. */
  private static final long WARMUP_ATTEMPTS = 1L << 40;

  private final StageSpec stage;
  private final CoordinatorPort port;
  private final ScheduledExecutorService exec;
  private final FlowLog log;
  private final int[] slots;
  private final AtomicInteger slotsLeft;
  private final CompletableFuture<Void> done = new CompletableFuture<>();
  private final double nanosPerByte;
  private final double jitter;
  private final long startDelayMs;
  private final long endDelayMs;
  private final int stageId;

  /**
   * @param stage the stage
   * @param slots the slots these tasks run in
   * @param port the way to the coordinator
   * @param exec runs the tasks' steps
   * @param log receives the flows and tallies
   * @param stageId {@link #STAGE} or {@link #WARMUP_STAGE}
   */
  TaskSimulator(
      StageSpec stage,
      int[] slots,
      CoordinatorPort port,
      ScheduledExecutorService exec,
      FlowLog log,
      int stageId) {
    this.stage = stage;
    this.stageId = stageId;
    this.port = port;
    this.exec = exec;
    this.log = log;
    this.slots = slots.clone();
    this.slotsLeft = new AtomicInteger(slots.length);
    BenchConfig c = stage.config();
    this.nanosPerByte = 1e9 / c.baseSpeed();
    this.jitter = c.jitter();
    this.startDelayMs = c.startDelayMs();
    this.endDelayMs = c.endDelayMs();
    if (slots.length == 0) {
      done.complete(null);
    }
  }

  /** Launches the first task of every slot. */
  void start() {
    for (int slot : slots) {
      exec.execute(() -> launch(slot, stage.tasksOfSlot(slot), 0));
    }
  }

  /**
   * @return completed when every slot ran all its tasks
   */
  CompletableFuture<Void> done() {
    return done;
  }

  private void launch(int slot, int[] tasks, int pos) {
    if (pos == tasks.length) {
      if (slotsLeft.decrementAndGet() == 0) {
        done.complete(null);
      }
      return;
    }
    SimTask t = new SimTask(slot, tasks, pos, stage.tasks()[tasks[pos]]);
    log.launched(System.nanoTime());
    port.taskLaunched(stageId, t.attemptId(), t.host());
    exec.schedule(t::register, startDelayMs, TimeUnit.MILLISECONDS);
  }

  /** One running task: its demand and its current grant. */
  private final class SimTask {
    final int slot;
    final int[] slotTasks;
    final int pos;
    final StageSpec.Task spec;
    final String[] srcHosts;
    final long[] remaining;
    final SplittableRandom rnd;
    long demandId;
    boolean wasUngated;

    // the grant being fetched
    long stepId;
    int[] grantIdx;
    long[] grantBytes;
    long grantStartNanos;
    long grantStartMs;

    SimTask(int slot, int[] slotTasks, int pos, StageSpec.Task spec) {
      this.slot = slot;
      this.slotTasks = slotTasks;
      this.pos = pos;
      this.spec = spec;
      this.srcHosts = new String[spec.src().length];
      for (int i = 0; i < srcHosts.length; i++) {
        srcHosts[i] = stage.hosts()[spec.src()[i]];
      }
      this.remaining = spec.bytes().clone();
      this.rnd = new SplittableRandom(stage.config().seed() * 31 + spec.id());
    }

    long attemptId() {
      return spec.id() + 1L + (stageId == WARMUP_STAGE ? WARMUP_ATTEMPTS : 0);
    }

    String host() {
      return stage.hosts()[spec.dst()];
    }

    void register() {
      RegisterDemand m =
          new RegisterDemand(
              stageId, 0, 0, attemptId(), "exec-" + host(), host(), srcHosts, spec.bytes().clone());
      log.message();
      port.register(m)
          .whenCompleteAsync(
              (r, e) -> {
                if (e != null) {
                  failed();
                } else {
                  registered(r);
                }
              },
              exec);
    }

    void registered(Registered r) {
      if (!r.opensGatedDemand()) {
        fetchUngated();
        return;
      }
      demandId = r.demandId();
      if (r.firstPoll() != null) {
        answered(r.firstPoll());
      } else {
        call(AwaitGrant.poll(demandId));
      }
    }

    void call(AwaitGrant m) {
      log.message();
      port.await(m)
          .whenCompleteAsync(
              (g, e) -> {
                if (e != null) {
                  failed();
                } else {
                  answered(g);
                }
              },
              exec);
    }

    void answered(GrantReply g) {
      switch (g.status()) {
        case GRANT -> fetch(g);
        case NOT_YET -> {
          log.expiredPoll();
          call(AwaitGrant.poll(demandId));
        }
        case FINISHED -> end();
        case UNGATED -> fetchUngated();
        default -> throw new IllegalStateException("unknown status " + g.status());
      }
    }

    void fetch(GrantReply g) {
      grantStartNanos = System.nanoTime();
      grantStartMs = System.currentTimeMillis();
      stepId = g.stepId();
      grantIdx = new int[g.srcHosts().length];
      grantBytes = new long[grantIdx.length];
      double longest = 0;
      for (int i = 0; i < grantIdx.length; i++) {
        int idx = indexOf(g.srcHosts()[i]);
        grantIdx[i] = idx;
        grantBytes[i] = idx < 0 ? 0 : Math.min(g.budgets()[i], remaining[idx]);
        longest = Math.max(longest, grantBytes[i] * nanosPerByte * (1 + jitter * rnd.nextDouble()));
      }
      exec.schedule(this::report, (long) Math.ceil(longest), TimeUnit.NANOSECONDS);
    }

    void report() {
      long endNanos = System.nanoTime();
      long[] fetched = new long[srcHosts.length];
      for (int i = 0; i < grantIdx.length; i++) {
        int idx = grantIdx[i];
        if (idx >= 0) {
          fetched[idx] += grantBytes[i];
          remaining[idx] -= grantBytes[i];
          log.flow(spec.src()[idx], spec.dst(), grantStartNanos, endNanos);
        }
      }
      call(
          new AwaitGrant(
              demandId,
              stepId,
              srcHosts,
              fetched,
              remaining.clone(),
              grantStartMs,
              System.currentTimeMillis()));
    }

    int indexOf(String host) {
      for (int i = 0; i < srcHosts.length; i++) {
        if (srcHosts[i].equals(host)) {
          return i;
        }
      }
      return -1;
    }

    void fetchUngated() {
      wasUngated = true;
      long longest = 0;
      for (long r : remaining) {
        longest = Math.max(longest, r);
      }
      java.util.Arrays.fill(remaining, 0);
      exec.schedule(this::end, (long) Math.ceil(longest * nanosPerByte), TimeUnit.NANOSECONDS);
    }

    void failed() {
      log.failure();
      fetchUngated();
    }

    void end() {
      boolean complete = !wasUngated;
      for (long r : remaining) {
        complete &= r == 0;
      }
      boolean full = complete;
      exec.schedule(
          () -> {
            port.taskEnded(attemptId());
            log.ended(System.nanoTime(), full, wasUngated);
            launch(slot, slotTasks, pos + 1);
          },
          endDelayMs,
          TimeUnit.MILLISECONDS);
    }
  }
}
