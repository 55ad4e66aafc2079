package io.wanshuffle.spark.arbiter;

/**
 * One application's demand on one link, as its driver publishes it to the other applications that
 * share the link ({@link BackboneShare#publish}).
 *
 * @param bytesWanted bytes still to cross the link in the application's registered demand, >= 0
 * @param flowsWanted flows the application could hold on the link at once now (e.g. its host pairs
 *     with residual demand whose routes hold the link), >= 0
 * @param sinceMs since when the application has wanted some link without a break, epoch ms (0: not
 *     known; the arbiter stamps it when it publishes, the same on each of its links)
 * @param flowsUsable of the flows wanted, those the application could hold given its shares of the
 *     other links of their routes ({@link RouteDemand#usable}), 0..{@code flowsWanted}; the arbiter
 *     works it out when it publishes (equal to {@code flowsWanted} when not known)
 * @param flowsOpen of the flows wanted, those the application holds on the link now (granted, not
 *     handed on), 0..{@code flowsWanted}: its share never falls below them in the split ({@link
 *     FairSplit}: shares do not preempt open flows)
 * @throws IllegalArgumentException if a value is negative or {@code flowsUsable} or {@code
 *     flowsOpen} is over {@code flowsWanted}
 */
public record LinkDemand(
    long bytesWanted, int flowsWanted, long sinceMs, int flowsUsable, int flowsOpen) {
  /** Checks the values (see the components). */
  public LinkDemand {
    if (bytesWanted < 0 || flowsWanted < 0 || sinceMs < 0) {
      throw new IllegalArgumentException(
          "bytesWanted, flowsWanted and sinceMs must be >= 0, got "
              + bytesWanted
              + ", "
              + flowsWanted
              + ", "
              + sinceMs);
    }
    if (flowsUsable < 0 || flowsUsable > flowsWanted || flowsOpen < 0 || flowsOpen > flowsWanted) {
      throw new IllegalArgumentException(
          "flowsUsable and flowsOpen must be in 0.."
              + flowsWanted
              + " (flowsWanted), got "
              + flowsUsable
              + " and "
              + flowsOpen);
    }
  }

  /**
   * A demand without open flows.
   *
   * @param bytesWanted bytes still to cross the link, >= 0
   * @param flowsWanted flows the application could hold on the link at once now, >= 0
   * @param sinceMs since when the application has wanted some link, epoch ms (0: not known)
   * @param flowsUsable the flows it could hold given its shares of the other links, 0..flowsWanted
   */
  public LinkDemand(long bytesWanted, int flowsWanted, long sinceMs, int flowsUsable) {
    this(bytesWanted, flowsWanted, sinceMs, flowsUsable, 0);
  }

  /**
   * A demand all of whose flows are usable.
   *
   * @param bytesWanted bytes still to cross the link, >= 0
   * @param flowsWanted flows the application could hold on the link at once now, >= 0
   * @param sinceMs since when the application has wanted some link, epoch ms (0: not known)
   */
  public LinkDemand(long bytesWanted, int flowsWanted, long sinceMs) {
    this(bytesWanted, flowsWanted, sinceMs, flowsWanted);
  }

  /**
   * A demand whose start the arbiter stamps when it publishes it ({@code sinceMs} 0).
   *
   * @param bytesWanted bytes still to cross the link, >= 0
   * @param flowsWanted flows the application could hold on the link at once now, >= 0
   */
  public LinkDemand(long bytesWanted, int flowsWanted) {
    this(bytesWanted, flowsWanted, 0);
  }

  /**
   * @param at since when the application has wanted some link, epoch ms
   * @return this demand with that start
   */
  LinkDemand since(long at) {
    return new LinkDemand(bytesWanted, flowsWanted, at, flowsUsable, flowsOpen);
  }

  /**
   * @param flows the usable flows, 0..{@link #flowsWanted}
   * @return this demand with them
   */
  LinkDemand usable(int flows) {
    return flows == flowsUsable
        ? this
        : new LinkDemand(bytesWanted, flowsWanted, sinceMs, flows, flowsOpen);
  }

  /**
   * @return whether the application wants anything on the link: some flow or some byte
   */
  public boolean any() {
    return flowsWanted > 0 || bytesWanted > 0;
  }

  /**
   * @return the flows the split may give the application before its share is capped: {@code
   *     flowsWanted}, at least 1 for a demand of bytes only
   */
  int claim() {
    return Math.max(1, flowsWanted);
  }

  /**
   * @return the flows the split's second pass may give the application before its share is capped:
   *     {@link #claim()} when every flow wanted is usable, else {@code flowsUsable} (0: no claim)
   */
  int usableClaim() {
    return flowsUsable == flowsWanted ? claim() : flowsUsable;
  }
}
