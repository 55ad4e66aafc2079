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
 * @param betaSeconds step setup delay β of the application, seconds (0 when not recorded: captures
 *     of format version 2)
 * @param hostPaths per host of {@code hosts}, its network path {@code /site/rack} or {@code /site}
 *     ("" when unknown; empty list when not recorded)
 * @param links the stage's traffic on every link of its routes, by name ({@link LinkLoads}; empty
 *     when not recorded)
 * @param linkSeries bytes over time on every backbone side and the bottleneck link ({@link
 *     LinkLoads#series()}; empty when not recorded)
 * @param network measured β and link rates, predicted and measured transfer phase ({@link
 *     NetworkFigures#NONE} when not recorded: captures of format version 3 and older)
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
    List<FlowCapture> flows,
    double betaSeconds,
    List<String> hostPaths,
    List<LinkFigures> links,
    List<LinkSeries> linkSeries,
    NetworkFigures network) {

  /** Copies the lists. */
  public StageCapture {
    hosts = List.copyOf(hosts);
    plans = List.copyOf(plans);
    steps = List.copyOf(steps);
    flows = List.copyOf(flows);
    hostPaths = List.copyOf(hostPaths);
    links = List.copyOf(links);
    linkSeries = List.copyOf(linkSeries);
    network = network == null ? NetworkFigures.NONE : network;
  }

  /**
   * @param beta step setup delay β, seconds
   * @param loads the stage's link loads
   * @return this capture with β, the host paths, the links and the link series of {@code loads}
   */
  public StageCapture withLinks(double beta, LinkLoads loads) {
    return with(beta, loads.pathsOf(hosts), loads.figures(), loads.series(), network);
  }

  /**
   * @param figures measured β and rates, predicted and measured transfer phase
   * @return this capture with {@code figures}
   */
  public StageCapture withNetwork(NetworkFigures figures) {
    return with(betaSeconds, hostPaths, links, linkSeries, figures);
  }

  /** This capture's matrix, plans, steps and flows with the given figures. */
  private StageCapture with(
      double beta,
      List<String> paths,
      List<LinkFigures> linkFigures,
      List<LinkSeries> series,
      NetworkFigures figures) {
    return new StageCapture(
        appId,
        stageId,
        stageAttempt,
        shuffleIds,
        algorithm,
        k,
        bytesPerSecond,
        backboneBytesPerSecond,
        hosts,
        registeredBytes,
        realisedBytes,
        firstDemandMs,
        endMs,
        plans,
        steps,
        flows,
        beta,
        paths,
        linkFigures,
        series,
        figures);
  }

  /**
   * @return true when the capture records host paths and links (format version 3 and later, or an
   *     event that carries them)
   */
  public boolean hasLinks() {
    return !links.isEmpty();
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
