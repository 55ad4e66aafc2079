package io.wanshuffle.spark.coordinator;

import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.event.ManualTimer;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Test harness: runs a {@link StepCoordinator} against simulated reduce tasks and flows on a {@link
 * ManualTimer}. Every granted flow moves its budget at the base speed b (bytes/s), so a grant of
 * budgets {@code B_i} ends {@code max_i B_i / b} seconds after it was handed out; the task then
 * reports it and polls again. Reduce tasks run in waves: each receiving host has one task slot, and
 * the next task of a host registers when the previous one finished (ended, as the driver listener
 * reports it). The stage's submission (each task preferring its receiving host) and task launches
 * are reported to the coordinator as the driver listener does.
 *
 * <p>This is the coordinator's own time model (no RTT, no TCP), so the makespan it returns is what
 * the coordinator's step logic alone achieves; tests compare it with the η lower bound.
 */
final class FlowSimulation {
  /** A reduce task: its receiving host and bytes per source host. */
  record Task(String dst, String[] src, long[] bytes) {}

  private static final int STAGE = 3;

  private FlowSimulation() {}

  /**
   * Runs {@code tasks} (in order per receiving host, one slot per host) to completion.
   *
   * @return the makespan in ms, from the first registration to the last report
   * @throws AssertionError when the run makes no progress
   */
  static long makespanMs(StepCoordinator c, ManualTimer timer, List<Task> tasks) {
    return makespanMs(c, timer, tasks, 0, 0);
  }

  /**
   * Like {@link #makespanMs(StepCoordinator, ManualTimer, List)}, with Spark's task start and end
   * taking time: a task ends {@code endDelayMs} after it read its last block (the host's next task
   * launches then), and registers {@code startDelayMs} after its launch (every wave; on the testbed
   * about 60 ms at RTT 0 and 350 ms at 40 ms RTT).
   *
   * @return the makespan in ms, from the stage's start to the last report
   */
  static long makespanMs(
      StepCoordinator c, ManualTimer timer, List<Task> tasks, long startDelayMs, long endDelayMs) {
    WanShuffleConf conf = c.conf();
    double bytesPerMs = conf.baseSpeed() / 1000.0;
    Map<String, Deque<Task>> queues = new LinkedHashMap<>();
    for (Task t : tasks) {
      queues.computeIfAbsent(t.dst(), h -> new ArrayDeque<>()).add(t);
    }
    Map<Long, RegisterDemand> regs = new HashMap<>();
    Map<Long, long[]> remaining = new HashMap<>();
    Map<Long, CompletableFuture<GrantReply>> polls = new LinkedHashMap<>();
    Map<Long, GrantReply> holding = new LinkedHashMap<>();
    Map<Long, Long> endsAt = new HashMap<>();
    long start = timer.now();
    long[] nextTask = {1};
    // the stage is submitted with each task preferring its receiving host; the first wave is
    // launched at once (the driver listener reports every launch), then its tasks register one by
    // one: the gather window ends with the last registration
    c.stageSubmitted(STAGE, 0, tasks.stream().map(t -> List.of(t.dst())).toList());
    int i = 0;
    for (String host : queues.keySet()) {
      c.taskLaunched(STAGE, 0, nextTask[0] + i++, host);
    }
    long firstWave = nextTask[0] + queues.size();
    // Spark's task start and end: actions at a time (epoch ms of the timer), in time order
    java.util.TreeMap<Long, List<Runnable>> later = new java.util.TreeMap<>();
    for (Deque<Task> q : queues.values()) {
      later
          .computeIfAbsent(timer.now() + startDelayMs, x -> new ArrayList<>())
          .add(() -> startNext(c, q, nextTask, firstWave, regs, remaining, polls, 0, later, timer));
    }
    int guard = 0;
    while (!polls.isEmpty() || !holding.isEmpty() || !later.isEmpty()) {
      if (++guard > 1_000_000) {
        throw new AssertionError("no progress: " + c);
      }
      if (!later.isEmpty() && later.firstKey() <= timer.now()) {
        later.pollFirstEntry().getValue().forEach(Runnable::run);
        continue;
      }
      for (Map.Entry<Long, CompletableFuture<GrantReply>> e : new ArrayList<>(polls.entrySet())) {
        if (!e.getValue().isDone()) {
          continue;
        }
        long id = e.getKey();
        GrantReply g = e.getValue().join();
        polls.remove(id);
        if (g.status() == GrantReply.Status.GRANT) {
          long longest = 0;
          for (long b : g.budgets()) {
            longest = Math.max(longest, b);
          }
          holding.put(id, g);
          endsAt.put(id, timer.now() + Math.max(1, (long) Math.ceil(longest / bytesPerMs)));
        } else {
          RegisterDemand done = regs.get(id);
          Deque<Task> q = queues.get(done.dstHost());
          later
              .computeIfAbsent(timer.now() + endDelayMs, x -> new ArrayList<>())
              .add(
                  () -> {
                    c.taskEnded(done.taskAttemptId()); // the task read all its blocks and ends
                    startNext(
                        c,
                        q,
                        nextTask,
                        firstWave,
                        regs,
                        remaining,
                        polls,
                        startDelayMs,
                        later,
                        timer);
                  });
        }
      }
      long nextLater = later.isEmpty() ? Long.MAX_VALUE : later.firstKey();
      if (holding.isEmpty()) {
        if (nextLater != Long.MAX_VALUE) {
          timer.advance(Math.max(0, Math.min(nextLater - timer.now(), 10)));
        } else if (!polls.isEmpty()) {
          timer.advance(10);
        }
        continue;
      }
      long id =
          holding.keySet().stream()
              .min((a, b) -> Long.compare(endsAt.get(a), endsAt.get(b)))
              .orElseThrow();
      if (nextLater < endsAt.get(id)) {
        timer.advance(Math.max(0, nextLater - timer.now()));
        continue;
      }
      timer.advance(Math.max(0, endsAt.get(id) - timer.now()));
      GrantReply g = holding.remove(id);
      polls.put(id, c.awaitGrant(reportOf(id, regs.get(id), g, remaining.get(id))));
    }
    return timer.now() - start;
  }

  /**
   * Launches the host's next task (after the first wave) and registers it after {@code
   * startDelayMs}.
   */
  private static void startNext(
      StepCoordinator c,
      Deque<Task> q,
      long[] nextTask,
      long firstWave,
      Map<Long, RegisterDemand> regs,
      Map<Long, long[]> remaining,
      Map<Long, CompletableFuture<GrantReply>> polls,
      long startDelayMs,
      java.util.TreeMap<Long, List<Runnable>> later,
      ManualTimer timer) {
    Task t = q.poll();
    if (t == null) {
      return;
    }
    long task = nextTask[0]++;
    if (task >= firstWave) {
      c.taskLaunched(STAGE, 0, task, t.dst());
    }
    if (startDelayMs > 0) {
      later
          .computeIfAbsent(timer.now() + startDelayMs, x -> new ArrayList<>())
          .add(() -> register(c, t, task, regs, remaining, polls));
    } else {
      register(c, t, task, regs, remaining, polls);
    }
  }

  private static void register(
      StepCoordinator c,
      Task t,
      long task,
      Map<Long, RegisterDemand> regs,
      Map<Long, long[]> remaining,
      Map<Long, CompletableFuture<GrantReply>> polls) {
    RegisterDemand d =
        new RegisterDemand(STAGE, 0, 7, task, "e" + task, t.dst(), t.src(), t.bytes());
    long id = c.register(d).demandId();
    regs.put(id, d);
    remaining.put(id, d.bytes().clone());
    polls.put(id, c.awaitGrant(AwaitGrant.poll(id)));
  }

  /** The report of a grant fetched in full, asking for the next one. */
  static AwaitGrant reportOf(long demandId, RegisterDemand d, GrantReply g, long[] remaining) {
    long[] fetched = new long[d.srcHosts().length];
    for (int i = 0; i < g.srcHosts().length; i++) {
      for (int s = 0; s < d.srcHosts().length; s++) {
        if (d.srcHosts()[s].equals(g.srcHosts()[i])) {
          long f = Math.min(g.budgets()[i], remaining[s]);
          fetched[s] = f;
          remaining[s] -= f;
        }
      }
    }
    return new AwaitGrant(demandId, g.stepId(), d.srcHosts(), fetched, remaining.clone(), 1, 2);
  }
}
