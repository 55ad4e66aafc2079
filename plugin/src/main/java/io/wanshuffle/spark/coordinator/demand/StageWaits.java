package io.wanshuffle.spark.coordinator.demand;

import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether a stage's tasks wait for the network: per stage attempt, which of its recent grants found
 * their demand's poll waiting for ports (parked at least {@value #WAITED_MS} ms: longer than a
 * planning round and a grant's trip, shorter than a flow). A gated stage whose demands get their
 * ports whenever they ask is not held by the network but by its tasks (their reading, their
 * computing, their waves): gating it only adds a grant's round trip to every step. Such a stage is
 * told by {@link #taskBound}: at least {@value #MIN_GRANTS} grants over at least {@value #MIN_MS}
 * ms, of which at most {@value #MAX_WAITED} of the last {@value #MIN_GRANTS} waited for ports.
 *
 * <p>Not thread-safe: used under the coordinator's lock.
 */
public final class StageWaits {
  /** Grants of a stage looked at, the most recent. */
  public static final int MIN_GRANTS = 20;

  /** Most of them that waited for ports in a stage the network does not hold. */
  public static final int MAX_WAITED = 2;

  /** A poll parked this long or longer before its grant waited for ports, ms. */
  public static final long WAITED_MS = 250;

  /** A shared link held this share of its window or more on average is busy. */
  public static final double BUSY = 0.5;

  /** Least time from a stage's first grant to a decision, ms. */
  public static final long MIN_MS = 10_000;

  /** One stage's first grant and its last grants' waits. */
  private static final class Stage {
    final long firstMs;
    final ArrayDeque<Boolean> waited = new ArrayDeque<>();
    int waitedCount;
    long grants;

    Stage(long firstMs) {
      this.firstMs = firstMs;
    }
  }

  private final Map<StageRef, Stage> stages = new HashMap<>();

  /**
   * Notes a grant to a demand of {@code stage}.
   *
   * @param stage the demand's stage attempt
   * @param waited whether its poll waited for ports (parked at least {@value #WAITED_MS} ms)
   * @param nowMs epoch ms
   */
  public void granted(StageRef stage, boolean waited, long nowMs) {
    Stage s = stages.computeIfAbsent(stage, x -> new Stage(nowMs));
    s.grants++;
    s.waited.addLast(waited);
    s.waitedCount += waited ? 1 : 0;
    if (s.waited.size() > MIN_GRANTS) {
      s.waitedCount -= s.waited.removeFirst() ? 1 : 0;
    }
  }

  /**
   * A stage the network does not hold.
   *
   * @param stage the stage attempt
   * @param grants its grants so far
   * @param waited how many of its last {@value #MIN_GRANTS} waited for ports
   * @param spanMs from its first grant to now, ms
   * @param busiest the busiest shared link's mean flows over its window since then
   */
  public record TaskBound(StageRef stage, long grants, int waited, long spanMs, double busiest) {
    /**
     * @return the decision's reason, for the log and the capture
     */
    public String reason() {
      return String.format(
          java.util.Locale.ROOT,
          "ungated: not network-bound: %d of its last %d grants waited for ports (%d grants in %.1f"
              + " s), the busiest shared link held %.0f %% of its window; its tasks, not the"
              + " links, set its pace",
          waited,
          Math.min(grants, MIN_GRANTS),
          grants,
          spanMs / 1000.0,
          100 * busiest);
    }
  }

  /**
   * The stages the network does not hold, each told once.
   *
   * @param nowMs epoch ms
   * @param leases the open flows: how busy the shared links were
   * @return stage attempts with at least {@value #MIN_GRANTS} grants over at least {@value #MIN_MS}
   *     ms, at most {@value #MAX_WAITED} of the last of which waited for ports, while the busiest
   *     shared link was held under {@value #BUSY} of its window; they are forgotten
   */
  public List<TaskBound> taskBound(long nowMs, FlowLeases leases) {
    List<TaskBound> out = new ArrayList<>();
    for (Map.Entry<StageRef, Stage> e : stages.entrySet()) {
      Stage s = e.getValue();
      if (s.grants >= MIN_GRANTS && nowMs - s.firstMs >= MIN_MS && s.waitedCount <= MAX_WAITED) {
        double busiest = leases.busiestSharedLink(s.firstMs, nowMs);
        if (busiest < BUSY) {
          out.add(new TaskBound(e.getKey(), s.grants, s.waitedCount, nowMs - s.firstMs, busiest));
        }
      }
    }
    out.forEach(t -> stages.remove(t.stage()));
    return out;
  }

  /**
   * @param stage a stage attempt that completed
   */
  public void forget(StageRef stage) {
    stages.remove(stage);
  }
}
