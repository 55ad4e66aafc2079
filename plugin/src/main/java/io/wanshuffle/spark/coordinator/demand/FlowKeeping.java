package io.wanshuffle.spark.coordinator.demand;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The receivers a free flow is kept for, with pipelined steps: a bottleneck receiver whose next
 * task is about to register (launched, or about to launch as the host's previous task ends) gets
 * the last free flow instead of a lighter transfer, for a bounded time (docs/plugin.md, "A flow
 * kept for a task about to register"). The bound per phase (task about to launch, then launched) is
 * the gather window, or {@value #KEEP_DELAY_FACTOR} x the median of the last {@value
 * #DELAY_SAMPLES} delays from a task's launch to its registration if longer. Not thread-safe:
 * guarded by the coordinator's lock.
 */
public final class FlowKeeping {
  /**
   * A free flow is kept for a receiver when its expected bytes per port are at least this many
   * times the load of the busier port of the transfer that would take the flow, and at least every
   * ranked transfer's load (the receiver is the bottleneck).
   */
  public static final double KEEP_FACTOR = 1.5;

  /**
   * A kept flow waits at most this many times the median launch-to-registration delay per phase.
   */
  static final double KEEP_DELAY_FACTOR = 1.5;

  /** Registration delays the bound is taken from (the most recent). */
  static final int DELAY_SAMPLES = 16;

  private final long gatherWindowMs;

  /** receiver -> since when a flow is kept for it. */
  private final Map<String, Keep> keptFor = new HashMap<>();

  /** The last {@value #DELAY_SAMPLES} delays from a task's launch to its registration, ms. */
  private final ArrayDeque<Long> registrationDelays = new ArrayDeque<>();

  private long boundMs;

  /**
   * A flow kept for a receiver: since when, epoch ms, and whether that time was already restarted
   * at the receiver's task launch (once per keep).
   */
  private record Keep(long sinceMs, boolean restarted) {}

  /**
   * @param gatherWindowMs the coordinator's gather window, ms: the shortest bound
   */
  public FlowKeeping(long gatherWindowMs) {
    this.gatherWindowMs = gatherWindowMs;
    this.boundMs = gatherWindowMs;
  }

  /**
   * @param ms a measured delay from a task's launch to its registration (or notice of no demand)
   */
  void noteRegistrationDelay(long ms) {
    registrationDelays.addLast(Math.max(0, ms));
    if (registrationDelays.size() > DELAY_SAMPLES) {
      registrationDelays.removeFirst();
    }
    long[] d = registrationDelays.stream().mapToLong(Long::longValue).sorted().toArray();
    boundMs = Math.max(gatherWindowMs, (long) Math.ceil(KEEP_DELAY_FACTOR * d[d.length / 2]));
  }

  /**
   * @return how long a flow is kept for a receiver per phase, ms
   */
  long boundMs() {
    return boundMs;
  }

  /**
   * Keeps a flow for {@code host} from {@code nowMs}, unless one is kept for it already.
   *
   * @param host a receiver
   * @param nowMs epoch ms
   */
  public void keep(String host, long nowMs) {
    keptFor.putIfAbsent(host, new Keep(nowMs, false));
  }

  /**
   * The receiver's task launched: the flow kept for it (if any) gets one more bound from now, once.
   *
   * @param host the task's host
   * @param nowMs epoch ms
   */
  void taskLaunched(String host, long nowMs) {
    Keep keep = keptFor.get(host);
    if (keep != null && !keep.restarted()) {
      keptFor.put(host, new Keep(nowMs, true));
    }
  }

  /**
   * Stops keeping a flow for {@code host} (its task registered, or has nothing to fetch across).
   *
   * @param host a receiver
   * @return true when a flow was kept for it
   */
  boolean release(String host) {
    return keptFor.remove(host) != null;
  }

  /**
   * @return true when no flow is kept for any receiver
   */
  public boolean isEmpty() {
    return keptFor.isEmpty();
  }

  /**
   * @param awaited the receivers still awaited: flows kept for any other are released
   */
  public void retainOnly(Set<String> awaited) {
    keptFor.keySet().retainAll(awaited);
  }

  /**
   * @param awaited whether a receiver is still awaited: flows kept for any other are released
   */
  public void retainOnly(Predicate<String> awaited) {
    keptFor.keySet().removeIf(awaited.negate());
  }

  /**
   * @param host a receiver
   * @param nowMs epoch ms
   * @return true when a flow has been kept for it for the whole bound
   */
  public boolean expired(String host, long nowMs) {
    Keep keep = keptFor.get(host);
    return keep != null && nowMs - keep.sinceMs() >= boundMs;
  }

  /**
   * @param nowMs epoch ms
   * @return when the oldest kept flow reaches its bound, epoch ms ({@code nowMs + bound} when none
   *     is kept)
   */
  public long nextExpiryMs(long nowMs) {
    return keptFor.values().stream().mapToLong(Keep::sinceMs).min().orElse(nowMs) + boundMs;
  }
}
