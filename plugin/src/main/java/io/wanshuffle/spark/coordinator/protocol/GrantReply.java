package io.wanshuffle.spark.coordinator.protocol;

import java.io.Serializable;

/**
 * The answer to {@link AwaitGrant}.
 *
 * @param status what the task should do
 * @param stepId the granted step (for {@link Status#GRANT}; 0 for an ungated grant)
 * @param srcHosts source hosts granted in this step
 * @param budgets byte budget per granted source host: the task fetches whole blocks from that host
 *     in order while it has fetched less than the budget (so at least one block, and at most one
 *     block beyond the budget)
 * @param heldMs how long the coordinator held the request for ports, ms: from the start of the
 *     first plan after the request arrived to the start of the plan that granted it (0 when the
 *     first plan granted it, or the answer was known at once). The executor takes it out of its
 *     hand-over loop, so that {@code c} is the coordinator's round trip, re-plan and grant, not a
 *     wait for ports (docs/plugin.md, "Predicted hand-over")
 */
public record GrantReply(Status status, long stepId, String[] srcHosts, long[] budgets, long heldMs)
    implements Serializable {

  /**
   * A reply that was not held for ports ({@code heldMs} = 0).
   *
   * @param status what the task should do
   * @param stepId the granted step
   * @param srcHosts source hosts granted in this step
   * @param budgets byte budget per granted source host
   */
  public GrantReply(Status status, long stepId, String[] srcHosts, long[] budgets) {
    this(status, stepId, srcHosts, budgets, 0);
  }

  /**
   * @param ms how long the request was held for ports, ms (negative taken as 0)
   * @return this reply with {@code heldMs} = {@code ms}
   */
  public GrantReply withHeldMs(long ms) {
    return new GrantReply(status, stepId, srcHosts, budgets, Math.max(0, ms));
  }

  /** What a {@link GrantReply} tells the task. */
  public enum Status {
    /** Fetch the granted bytes now, then report with the next {@link AwaitGrant}. */
    GRANT,
    /** Nothing yet: ask again. */
    NOT_YET,
    /** The demand is complete: nothing more to fetch across clusters. */
    FINISHED,
    /**
     * Stop gating: fetch every remaining cross-cluster block now (demand unknown or released,
     * coordinator stopping).
     */
    UNGATED
  }

  /** Reply without a grant. */
  public static GrantReply of(Status status) {
    return new GrantReply(status, 0, new String[0], new long[0]);
  }
}
