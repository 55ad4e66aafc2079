package io.wanshuffle.spark.coordinator.demand;

import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.network.HostIndex;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * One registered demand and its life cycle: a reduce task attempt's bytes to fetch per
 * cross-cluster source host, its phase ({@link DemandPhase}), its current grant and its parked
 * long-poll. Every change of its state goes through the transition methods below, which check the
 * phase they leave (with assertions, as the reader's state machine does); no other class writes its
 * fields. Mutable; used under the coordinator's lock.
 */
public final class Demand {
  private final long id;
  private final StageRef stage;
  private final int shuffleId;
  private final long taskAttemptId;
  private final String executorId;
  private final String dst;
  private final String[] src;
  private final long[] registered;
  private final long[] remaining;
  private final long[] realised;

  private DemandPhase phase = DemandPhase.WAITING;

  /**
   * Current grant: non-null exactly while the demand holds one ({@link DemandPhase#holdsGrant}).
   */
  private Grant grant;

  /** Parked long-poll, null when the task is not waiting. */
  private CompletableFuture<GrantReply> waiter;

  /** When {@link #waiter} was parked, epoch ms (driver clock). */
  private long parkedAtMs;

  /**
   * When the first plan after {@link #waiter} was parked started, {@code System.nanoTime()}; 0
   * while none has.
   */
  private long firstPlanNanos;

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
   * @param id the demand's id (ids increase with registration)
   * @param stage the reduce task's stage attempt
   * @param shuffleId the shuffle read
   * @param taskAttemptId Spark's task attempt id
   * @param executorId the task's executor
   * @param dst the receiving host (the task's)
   * @param src the cross-cluster source hosts
   * @param bytes bytes to fetch per source host, in the order of {@code src}
   */
  public Demand(
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
   * @return the demand's id
   */
  public long id() {
    return id;
  }

  /**
   * @return the task's stage attempt
   */
  public StageRef stage() {
    return stage;
  }

  /**
   * @return the shuffle read
   */
  public int shuffleId() {
    return shuffleId;
  }

  /**
   * @return Spark's task attempt id
   */
  public long taskAttemptId() {
    return taskAttemptId;
  }

  /**
   * @return the task's executor
   */
  public String executorId() {
    return executorId;
  }

  /**
   * @return the receiving host
   */
  public String dst() {
    return dst;
  }

  /**
   * @return the source hosts (shared array: do not modify)
   */
  public String[] src() {
    return src;
  }

  /**
   * @return bytes registered per source host (shared array: do not modify)
   */
  public long[] registered() {
    return registered;
  }

  /**
   * @param i index into {@link #src()}
   * @return bytes still to fetch from source {@code i}
   */
  public long remaining(int i) {
    return remaining[i];
  }

  /**
   * @return bytes still to fetch per source host (a copy)
   */
  public long[] remaining() {
    return remaining.clone();
  }

  /**
   * @return bytes fetched per source host so far (a copy)
   */
  public long[] realised() {
    return realised.clone();
  }

  /**
   * @return the demand's phase
   */
  DemandPhase phase() {
    return phase;
  }

  /**
   * @return the grant held, null when none
   */
  public Grant grant() {
    return grant;
  }

  /**
   * @return true when the demand holds a grant its task has not collected
   */
  public boolean grantUncollected() {
    return phase == DemandPhase.GRANTED;
  }

  /**
   * @return true when a long-poll of the task is parked
   */
  boolean parked() {
    return waiter != null;
  }

  /**
   * @return true once released
   */
  public boolean released() {
    return phase == DemandPhase.RELEASED;
  }

  private void moveTo(DemandPhase next) {
    assert phase.canMoveTo(next) : "demand " + id + ": " + phase + " -> " + next;
    phase = next;
  }

  /**
   * Parks a long-poll of the task (phases without a grant).
   *
   * @param poll the poll's future, completed when a step grants the demand
   * @param nowMs epoch ms (driver clock)
   * @return the poll it replaces (to be answered "not yet"), or null
   */
  public CompletableFuture<GrantReply> park(CompletableFuture<GrantReply> poll, long nowMs) {
    assert !phase.holdsGrant() && !released() : "demand " + id + " parks a poll in " + phase;
    CompletableFuture<GrantReply> old = waiter;
    waiter = poll;
    firstPlanNanos = 0;
    if (old == null) {
      parkedAtMs = nowMs;
    }
    return old;
  }

  /**
   * @param nowMs epoch ms (driver clock)
   * @return how long the parked poll has waited for a grant, ms (0 when none is parked); a poll
   *     that replaced an unanswered one counts from the first
   */
  public long waitedMs(long nowMs) {
    return waiter == null ? 0 : Math.max(0, nowMs - parkedAtMs);
  }

  /**
   * Takes the parked poll off the demand.
   *
   * @return the poll, or null when none was parked
   */
  public CompletableFuture<GrantReply> takeWaiter() {
    CompletableFuture<GrantReply> w = waiter;
    waiter = null;
    return w;
  }

  /**
   * Takes {@code poll} off the demand if it is the one parked.
   *
   * @param poll a poll's future
   * @return true when it was parked (it no longer is)
   */
  public boolean unpark(CompletableFuture<GrantReply> poll) {
    if (waiter != poll) {
      return false;
    }
    waiter = null;
    return true;
  }

  /**
   * Notes a planning round that read the demand while its poll was parked: the first one is when
   * the poll started waiting for ports.
   *
   * @param startedNanos the round's start, {@code System.nanoTime()}
   */
  public void planStarted(long startedNanos) {
    if (waiter != null && firstPlanNanos == 0) {
      firstPlanNanos = startedNanos;
    }
  }

  /**
   * @param startedNanos the start of the round that grants it, {@code System.nanoTime()}
   * @return ms the parked poll waited for ports, from the first plan after it to this one
   */
  public long heldMs(long startedNanos) {
    return firstPlanNanos == 0 ? 0 : (startedNanos - firstPlanNanos) / 1_000_000;
  }

  /**
   * A poll's mark: {@link DemandPhase#WAITING} when not idle, {@link DemandPhase#STANDING_ASIDE}
   * when idle. No effect while the demand holds a grant (an idle poll ends the grant first).
   *
   * @param idle whether the task reads another shuffle
   */
  public void markIdle(boolean idle) {
    if (phase == DemandPhase.WAITING || phase == DemandPhase.STANDING_ASIDE) {
      moveTo(idle ? DemandPhase.STANDING_ASIDE : DemandPhase.WAITING);
    }
  }

  /**
   * Gives the demand its part of a step ({@link DemandPhase#WAITING} to {@link
   * DemandPhase#GRANTED}, or to {@link DemandPhase#FETCHING} when handed to a poll now).
   *
   * @param g the grant
   * @param collected whether the grant is handed to the task now
   */
  public void grant(Grant g, boolean collected) {
    assert phase == DemandPhase.WAITING : "demand " + id + " granted in " + phase;
    moveTo(collected ? DemandPhase.FETCHING : DemandPhase.GRANTED);
    grant = g;
  }

  /**
   * Grants every byte left at once, ungated (step 0), handed to the task now.
   *
   * @return the grant's reply
   */
  public GrantReply grantAll() {
    int[] idx = new int[src.length];
    for (int i = 0; i < idx.length; i++) {
      idx[i] = i;
    }
    grant(new Grant(0, idx, remaining.clone()), true);
    return grant.reply(this);
  }

  /**
   * A poll collects the grant held.
   *
   * @return the grant's reply
   */
  public GrantReply collect() {
    moveTo(DemandPhase.FETCHING);
    return grant.reply(this);
  }

  /**
   * The poll the grant was meant for expired before it was answered: not collected after all (no
   * effect on a demand that holds no grant).
   */
  public void uncollected() {
    if (phase.holdsGrant()) {
      moveTo(DemandPhase.GRANTED);
    }
  }

  /**
   * Records a receiver's report of its part of a step from one source host.
   *
   * @param i index into {@link #src()}
   * @param fetched bytes fetched in the step
   * @param left bytes still to fetch from the host
   */
  public void reported(int i, long fetched, long left) {
    assert grant != null : "demand " + id + " reports without a grant in " + phase;
    remaining[i] = Math.max(0, left);
    realised[i] += fetched;
  }

  /**
   * Ends the grant held: reported, taken back, or past its deadline ({@link DemandPhase#WAITING}; a
   * released demand stays released).
   *
   * @return the grant, or null when none was held
   */
  public Grant endGrant() {
    Grant g = grant;
    grant = null;
    if (phase.holdsGrant()) {
      moveTo(DemandPhase.WAITING);
    }
    return g;
  }

  /** Every byte was fetched: the demand leaves the book. */
  public void finish() {
    moveTo(DemandPhase.FINISHED);
  }

  /**
   * Releases the demand; a grant held stays until {@link #endGrant}.
   *
   * @return false when it was released already
   */
  public boolean release() {
    if (released()) {
      return false;
    }
    moveTo(DemandPhase.RELEASED);
    return true;
  }

  /**
   * The route of one of the demand's pairs, kept with the demand so that reading the residual does
   * not look it up again on every round (a route never changes, {@link LinkModel}).
   *
   * @param i index into {@link #src}
   * @param links the link model
   * @return the link ids of the route {@code src[i]} → {@link #dst} (shared array: do not modify)
   */
  public int[] route(int i, LinkModel links) {
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
  public int[] sharedLinks(LinkModel links) {
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
  public int[] hostIds(HostIndex index) {
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
  public long remainingTotal() {
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
  public long[] futureBytes() {
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
   * @return true when the demand takes part in planning ({@link DemandPhase#plannable})
   */
  public boolean plannable() {
    return phase.plannable();
  }

  /**
   * @return true when the demand may take a new grant now: plannable and holding none
   */
  public boolean grantable() {
    return phase == DemandPhase.WAITING;
  }

  /**
   * @param host a source host
   * @return its index in {@link #src}, -1 when the demand does not fetch from it
   */
  public int indexOf(String host) {
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
  public record Grant(long stepId, int[] srcIdx, long[] budgets) {
    public GrantReply reply(Demand d) {
      String[] hosts = new String[srcIdx.length];
      for (int i = 0; i < srcIdx.length; i++) {
        hosts[i] = d.src()[srcIdx[i]];
      }
      return new GrantReply(GrantReply.Status.GRANT, stepId, hosts, budgets.clone());
    }
  }
}
