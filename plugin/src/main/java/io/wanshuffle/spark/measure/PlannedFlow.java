package io.wanshuffle.spark.measure;

/**
 * Transfers of a plan from one host to another, in plan order, as the prediction runs them: one
 * transfer, or several of the same host pair summed (a stage's forecast of many tasks still to
 * launch, whose transfers are not simulated one by one).
 *
 * @param srcHost sending host
 * @param dstHost receiving host
 * @param bytes bytes they move, in all
 * @param transfers how many transfers they are, at least 1 (each pays a setup delay β)
 * @throws IllegalArgumentException if {@code transfers} is below 1
 */
public record PlannedFlow(String srcHost, String dstHost, long bytes, int transfers) {
  /** Checks the transfer count. */
  public PlannedFlow {
    if (transfers < 1) {
      throw new IllegalArgumentException("a planned flow is at least 1 transfer, got " + transfers);
    }
  }

  /**
   * One transfer.
   *
   * @param srcHost sending host
   * @param dstHost receiving host
   * @param bytes bytes it moves
   */
  public PlannedFlow(String srcHost, String dstHost, long bytes) {
    this(srcHost, dstHost, bytes, 1);
  }
}
