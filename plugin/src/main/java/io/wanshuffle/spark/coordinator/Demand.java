package io.wanshuffle.spark.coordinator;

import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.Arrays;
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

  /** Per source host, the link ids of its route to {@link #dst}; each filled when first read. */
  private int[][] routes;

  /** The link model {@link #routes} come from. */
  private LinkModel routesOf;

  /** The links on the route of every source host, from {@link #routesOf}; null until asked for. */
  private int[] sharedLinks;

  /** The ids of {@link #src} then {@link #dst} in {@link #idsOf}; null until first asked for. */
  private int[] hostIds;

  private HostIndex idsOf;

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

  /**
   * The route of one of the demand's pairs, kept with the demand so that reading the residual does
   * not look it up again on every round (a route never changes, {@link LinkModel}).
   *
   * @param i index into {@link #src}
   * @param links the link model
   * @return the link ids of the route {@code src[i]} → {@link #dst} (shared array: do not modify)
   */
  int[] route(int i, LinkModel links) {
    if (routes == null || routesOf != links) {
      routes = new int[src.length][];
      routesOf = links;
      sharedLinks = null;
    }
    int[] r = routes[i];
    if (r == null) {
      r = links.route(src[i], dst);
      routes[i] = r;
    }
    return r;
  }

  /**
   * The links every route of the demand crosses (on a link model's routes: at least {@code
   * backbone.in} and {@code nic.down} of {@link #dst}'s cluster and host): when one of them is
   * full, no flow of the demand fits. Computed once per link model.
   *
   * @param links the link model
   * @return link ids in the order of the first source's route (shared array: do not modify)
   */
  int[] sharedLinks(LinkModel links) {
    if (src.length == 0) {
      return new int[0];
    }
    if (sharedLinks == null || routesOf != links) {
      int[] first = route(0, links);
      int[] shared = new int[first.length];
      int n = 0;
      for (int l : first) {
        boolean onEvery = true;
        for (int i = 1; i < src.length && onEvery; i++) {
          onEvery = contains(route(i, links), l);
        }
        if (onEvery) {
          shared[n++] = l;
        }
      }
      sharedLinks = Arrays.copyOf(shared, n);
    }
    return sharedLinks;
  }

  private static boolean contains(int[] a, int v) {
    for (int x : a) {
      if (x == v) {
        return true;
      }
    }
    return false;
  }

  /**
   * The ids of the demand's hosts, resolved once per index.
   *
   * @param index the coordinator's host ids
   * @return the id of {@code src[i]} at i, then the id of {@link #dst} at {@code src.length}
   *     (shared array: do not modify)
   */
  int[] hostIds(HostIndex index) {
    if (hostIds == null || idsOf != index) {
      int[] ids = new int[src.length + 1];
      for (int i = 0; i < src.length; i++) {
        ids[i] = index.id(src[i]);
      }
      ids[src.length] = index.id(dst);
      hostIds = ids;
      idsOf = index;
    }
    return hostIds;
  }

  /**
   * @return bytes still to fetch over every source host
   */
  long remainingTotal() {
    long s = 0;
    for (long r : remaining) {
      s += r;
    }
    return s;
  }

  /**
   * @return per source host, the bytes still to grant: the residual minus the budget of the grant
   *     being fetched (if any), never negative
   */
  long[] futureBytes() {
    long[] f = remaining.clone();
    if (grant != null) {
      for (int i = 0; i < grant.srcIdx().length; i++) {
        int idx = grant.srcIdx()[i];
        f[idx] = Math.max(0, f[idx] - grant.budgets()[i]);
      }
    }
    return f;
  }

  /**
   * @return true when the demand takes part in planning: not released and its task not idle
   */
  boolean plannable() {
    return !released && !idle;
  }

  /**
   * @return true when the demand may take a new grant now: plannable and holding none
   */
  boolean grantable() {
    return plannable() && grant == null;
  }

  /**
   * @param host a source host
   * @return its index in {@link #src}, -1 when the demand does not fetch from it
   */
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
