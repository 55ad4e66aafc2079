package io.wanshuffle.spark.coordinator;

import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import java.util.concurrent.CompletableFuture;

/**
 * One registered demand: a reduce task attempt's bytes to fetch per cross-cluster source host, with
 * its current grant and its parked long-poll. Mutable; used under the coordinator's lock.
 */
final class Demand {
  final long id;
  final StageRef stage;
  final int shuffleId;
  final long taskAttemptId;
  final String executorId;
  final String dst;
  final String[] src;
  final long[] registered;
  final long[] remaining;
  final long[] realised;

  /** Current grant (handed to the task or waiting for its next poll), null when none. */
  Grant grant;

  /**
   * The task has been handed {@link #grant} (in a poll's reply); false while it waits for a poll.
   */
  boolean grantDelivered;

  /** Parked long-poll, null when the task is not waiting. */
  CompletableFuture<GrantReply> waiter;

  /**
   * When the first plan after {@link #waiter} was parked started, {@code System.nanoTime()}; 0
   * while none has.
   */
  long firstPlanNanos;

  boolean released;

  /**
   * The task is reading another shuffle and waits for a grant there (its last poll said idle): not
   * planned until a poll says otherwise.
   */
  boolean idle;

  Demand(
      long id,
      StageRef stage,
      int shuffleId,
      long taskAttemptId,
      String executorId,
      String dst,
      String[] src,
      long[] bytes) {
    this.id = id;
    this.stage = stage;
    this.shuffleId = shuffleId;
    this.taskAttemptId = taskAttemptId;
    this.executorId = executorId;
    this.dst = dst;
    this.src = src.clone();
    this.registered = bytes.clone();
    this.remaining = bytes.clone();
    this.realised = new long[bytes.length];
  }

  long remainingTotal() {
    long s = 0;
    for (long r : remaining) {
      s += r;
    }
    return s;
  }

  int indexOf(String host) {
    for (int i = 0; i < src.length; i++) {
      if (src[i].equals(host)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * A grant to this demand in one step.
   *
   * @param stepId the step (0 = ungated grant of everything)
   * @param srcIdx indices into {@link #src} of the granted source hosts
   * @param budgets bytes per granted source host
   */
  record Grant(long stepId, int[] srcIdx, long[] budgets) {
    GrantReply reply(Demand d) {
      String[] hosts = new String[srcIdx.length];
      for (int i = 0; i < srcIdx.length; i++) {
        hosts[i] = d.src[srcIdx[i]];
      }
      return new GrantReply(GrantReply.Status.GRANT, stepId, hosts, budgets.clone());
    }
  }
}
