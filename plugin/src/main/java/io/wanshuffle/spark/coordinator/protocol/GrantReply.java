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
 */
public record GrantReply(Status status, long stepId, String[] srcHosts, long[] budgets)
    implements Serializable {

  /** What a {@link GrantReply} tells the task. */
  public enum Status {
    /** Fetch the granted bytes now, then report with the next {@link AwaitGrant}. */
    GRANT,
    /** Nothing yet: ask again. */
    NOT_YET,
    /** The demand is complete: nothing more to fetch across clusters. */
    FINISHED,
    /** Stop gating: fetch every remaining cross-cluster block now (demand unknown or released, coordinator stopping). */
    UNGATED
  }

  /** Reply without a grant. */
  public static GrantReply of(Status status) {
    return new GrantReply(status, 0, new String[0], new long[0]);
  }
}
