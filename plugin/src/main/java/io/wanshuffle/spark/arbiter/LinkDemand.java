package io.wanshuffle.spark.arbiter;

/**
 * One application's demand on one link, as its driver publishes it to the other applications that
 * share the link ({@link BackboneShare#publish}).
 *
 * @param bytesWanted bytes still to cross the link in the application's registered demand, >= 0
 * @param flowsWanted flows the application could hold on the link at once now (e.g. its host pairs
 *     with residual demand whose routes hold the link), >= 0
 * @throws IllegalArgumentException if either is negative
 */
public record LinkDemand(long bytesWanted, int flowsWanted) {
  /** Checks the values (see the components). */
  public LinkDemand {
    if (bytesWanted < 0 || flowsWanted < 0) {
      throw new IllegalArgumentException(
          "bytesWanted and flowsWanted must be >= 0, got " + bytesWanted + ", " + flowsWanted);
    }
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
}
