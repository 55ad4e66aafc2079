package io.wanshuffle.spark.capture;

import java.util.List;

/**
 * Everything captured about the cross-cluster shuffle traffic of one reduce stage attempt: the
 * transfer matrix, the plans that granted it steps, the realised steps and the realised flows.
 * Written as {@code stage-<id>.<attempt>.kryo} (read with {@link CaptureFiles#readStage}).
 *
 * @param appId Spark application id
 * @param stageId stage id
 * @param stageAttempt stage attempt
 * @param shuffleIds shuffles the stage read
 * @param algorithm step scheduler ({@code none} when gating is off)
 * @param k flow limit k of the application
 * @param bytesPerSecond base speed, bytes/s
 * @param backboneBytesPerSecond backbone rate, bytes/s
 * @param hosts hosts indexing the two matrices
 * @param registeredBytes {@code [src][dst]}: cross-cluster bytes registered as demand (the transfer
 *     matrix)
 * @param realisedBytes {@code [src][dst]}: cross-cluster bytes reported fetched
 * @param firstDemandMs first demand registration, epoch ms (0 if none)
 * @param endMs stage completion, epoch ms
 * @param plans plans from which steps were granted to this stage, by plan id
 * @param steps steps that granted something to this stage, by step id
 * @param flows realised flows of this stage (one per task, step and source host)
 */
public record StageCapture(
    String appId,
    int stageId,
    int stageAttempt,
    int[] shuffleIds,
    String algorithm,
    int k,
    long bytesPerSecond,
    long backboneBytesPerSecond,
    List<String> hosts,
    long[][] registeredBytes,
    long[][] realisedBytes,
    long firstDemandMs,
    long endMs,
    List<PlanCapture> plans,
    List<StepCapture> steps,
    List<FlowCapture> flows) {

  /** Copies the lists. */
  public StageCapture {
    hosts = List.copyOf(hosts);
    plans = List.copyOf(plans);
    steps = List.copyOf(steps);
    flows = List.copyOf(flows);
  }

  /**
   * @return the sum of {@link #registeredBytes()}
   */
  public long totalRegisteredBytes() {
    return sum(registeredBytes);
  }

  /**
   * @return the sum of {@link #realisedBytes()}
   */
  public long totalRealisedBytes() {
    return sum(realisedBytes);
  }

  private static long sum(long[][] m) {
    long s = 0;
    for (long[] row : m) {
      for (long v : row) {
        s += v;
      }
    }
    return s;
  }

  /**
   * The transfer matrix ({@link #registeredBytes()}) restricted to hosts that send (rows) and
   * receive (columns) cross-cluster bytes, as {@code ./wan-shuffle plan} reads it.
   *
   * @return the compact sender x receiver matrix, bytes
   */
  public HostMatrix transferMatrix() {
    return HostMatrix.compact(hosts, registeredBytes);
  }
}
