package io.wanshuffle.spark.capture;

/**
 * One link's figures in a stage, a row of {@code stage-*.links.csv} ({@link LinkLoads}).
 *
 * @param link the link's name, e.g. {@code backbone.out[/A]} (docs/topology.md)
 * @param capacityFlows flows it carries at once (rate / base speed)
 * @param rateBytesPerSecond its rate: capacity x base speed, bytes/s
 * @param registeredBytes the stage's bytes registered across it
 * @param realisedBytes the stage's bytes fetched across it
 * @param maxFlowsInAStep most flows one step granted across it
 */
public record LinkFigures(
    String link,
    int capacityFlows,
    long rateBytesPerSecond,
    long registeredBytes,
    long realisedBytes,
    int maxFlowsInAStep) {

  /**
   * @return registered bytes over the rate, seconds: no schedule moves the stage's bytes across
   *     this link faster (0 for a link without a rate)
   */
  public double lowerBoundSeconds() {
    return rateBytesPerSecond <= 0 ? 0 : (double) registeredBytes / rateBytesPerSecond;
  }
}
