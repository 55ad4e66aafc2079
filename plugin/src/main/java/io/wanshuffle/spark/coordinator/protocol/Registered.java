package io.wanshuffle.spark.coordinator.protocol;

import java.io.Serializable;

/**
 * The coordinator's answer to {@link RegisterDemand}. For a gated demand the coordinator holds the
 * answer like a long-poll ({@link AwaitGrant}) until it can answer the demand's first poll too, so
 * that a task's first grant costs one round trip to the driver instead of two.
 *
 * @param demandId id to quote in later messages
 * @param gated true: fetch cross-cluster blocks only inside granted steps; false: fetch them now
 *     (algorithm {@code none})
 * @param firstPoll the answer to the demand's first poll ({@link GrantReply.Status#GRANT}, or
 *     {@link GrantReply.Status#NOT_YET} when the poll interval passed without a grant); null when
 *     the task is to poll itself
 * @param heldMs how long the coordinator held the answer before sending it, ms (0 when it answered
 *     at once): the task subtracts it from the call's duration to measure its round trip to the
 *     driver
 * @param baseSpeed the base speed b the coordinator plans with when it answers, bytes/s (the
 *     measured one once the driver switched to it with {@code auto} rates); 0 when not given. The
 *     executor takes it for its {@code gate.minBytes=auto} threshold.
 * @param receiverPorts δ of the registering task's host as a receiver in the coordinator's link
 *     model, flows; 0 when not given
 */
public record Registered(
    long demandId,
    boolean gated,
    GrantReply firstPoll,
    long heldMs,
    long baseSpeed,
    int receiverPorts)
    implements Serializable {
  /**
   * An answer without the first poll's answer nor the coordinator's link model.
   *
   * @param demandId id to quote in later messages
   * @param gated whether the demand is gated
   */
  public Registered(long demandId, boolean gated) {
    this(demandId, gated, null, 0, 0, 0);
  }

  /**
   * An answer without the coordinator's link model.
   *
   * @param demandId id to quote in later messages
   * @param gated whether the demand is gated
   * @param firstPoll the answer to the demand's first poll, or null
   * @param heldMs how long the coordinator held the answer, ms
   */
  public Registered(long demandId, boolean gated, GrantReply firstPoll, long heldMs) {
    this(demandId, gated, firstPoll, heldMs, 0, 0);
  }

  /**
   * @param bytesPerSecond the base speed the coordinator plans with, bytes/s
   * @param ports δ of the registering host as a receiver, flows
   * @return this registration carrying them
   */
  public Registered withLinks(long bytesPerSecond, int ports) {
    return new Registered(demandId, gated, firstPoll, heldMs, bytesPerSecond, ports);
  }

  /**
   * @return true when the task is to fetch its cross-cluster blocks in granted steps of the demand
   *     {@link #demandId}: gated, and a demand id was given (0 when the coordinator stops)
   */
  public boolean opensGatedDemand() {
    return gated && demandId > 0;
  }

  /**
   * @param first the answer to the demand's first poll
   * @param heldMs how long the coordinator held the registration for it, ms
   * @return this registration carrying {@code first}
   */
  public Registered withFirstPoll(GrantReply first, long heldMs) {
    return new Registered(demandId, gated, first, heldMs, baseSpeed, receiverPorts);
  }
}
