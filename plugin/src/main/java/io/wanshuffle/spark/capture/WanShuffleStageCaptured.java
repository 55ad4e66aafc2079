package io.wanshuffle.spark.capture;

import java.util.List;
import org.apache.spark.scheduler.SparkListenerEvent;

/**
 * SparkListener event posted on the driver's listener bus when a reduce stage attempt with
 * cross-cluster traffic completed: its transfer matrix, step summary, links and first plan, in the
 * event log and the History Server (see {@link WanShuffleStepCompleted} for how it is serialised).
 * Events of older versions lack the fields from {@code bytesPerSecond} on: Spark's JSON reader
 * leaves them 0 or null ({@link #hasLinks()}).
 *
 * @param appId application id
 * @param stageId stage id
 * @param stageAttempt stage attempt
 * @param shuffleIds shuffles read
 * @param algorithm step scheduler ({@code none}: gating off)
 * @param k flow limit
 * @param hosts hosts indexing the matrices
 * @param registeredBytes {@code [src][dst]} cross-cluster bytes registered (the transfer matrix)
 * @param realisedBytes {@code [src][dst]} cross-cluster bytes fetched
 * @param stepIds steps that granted something to the stage
 * @param planIds plans those steps came from
 * @param firstDemandMs first demand registration, epoch ms
 * @param endMs stage end, epoch ms
 * @param captureFile the stage's Kryo capture file, or null when no capture folder is set
 * @param bytesPerSecond base speed, bytes/s
 * @param backboneBytesPerSecond backbone rate, bytes/s
 * @param betaSeconds step setup delay β, seconds
 * @param hostPaths per host of {@code hosts}, its path {@code /site/rack} or {@code /site}
 * @param links the stage's traffic on every link of its routes ({@link LinkLoads})
 * @param linkSeries bytes over time on every backbone side and the bottleneck link
 * @param firstPlan the first plan the stage's steps came from (null when none)
 * @param network measured β and link rates, predicted and measured transfer phase (null in events
 *     of older versions)
 */
public record WanShuffleStageCaptured(
    String appId,
    int stageId,
    int stageAttempt,
    int[] shuffleIds,
    String algorithm,
    int k,
    List<String> hosts,
    long[][] registeredBytes,
    long[][] realisedBytes,
    long[] stepIds,
    long[] planIds,
    long firstDemandMs,
    long endMs,
    String captureFile,
    long bytesPerSecond,
    long backboneBytesPerSecond,
    double betaSeconds,
    List<String> hostPaths,
    List<LinkFigures> links,
    List<LinkSeries> linkSeries,
    PlanCapture firstPlan,
    NetworkFigures network)
    implements SparkListenerEvent {

  /**
   * @param cap a completed stage's capture
   * @param file its Kryo capture file, or null when no capture folder is set
   * @return the stage's event: its capture's fields, the ids of its steps and plans, its first plan
   */
  static WanShuffleStageCaptured of(StageCapture cap, java.nio.file.Path file) {
    long[] stepIds = cap.steps().stream().mapToLong(StepCapture::stepId).toArray();
    long[] planIds = cap.plans().stream().mapToLong(PlanCapture::planId).toArray();
    return new WanShuffleStageCaptured(
        cap.appId(),
        cap.stageId(),
        cap.stageAttempt(),
        cap.shuffleIds(),
        cap.algorithm(),
        cap.k(),
        cap.hosts(),
        cap.registeredBytes(),
        cap.realisedBytes(),
        stepIds,
        planIds,
        cap.firstDemandMs(),
        cap.endMs(),
        file != null ? file.toString() : null,
        cap.bytesPerSecond(),
        cap.backboneBytesPerSecond(),
        cap.betaSeconds(),
        cap.hostPaths(),
        cap.links(),
        cap.linkSeries(),
        cap.plans().isEmpty() ? null : cap.plans().get(0),
        cap.network());
  }

  /**
   * @return true when the event carries links and host paths (posted by this version)
   */
  public boolean hasLinks() {
    return links != null && !links.isEmpty();
  }

  /**
   * The stage as a {@link StageCapture}: the steps it names, looked up in {@code steps}, and its
   * first plan; no flows (the event log has none). Missing fields of older events become 0 or
   * empty.
   *
   * @param steps steps known so far by id ({@link WanShuffleStepCompleted#toCapture()})
   * @return the capture
   */
  public StageCapture toCapture(java.util.Map<Long, StepCapture> steps) {
    List<StepCapture> mine = new java.util.ArrayList<>();
    if (stepIds != null) {
      for (long id : stepIds) {
        StepCapture s = steps.get(id);
        if (s != null) {
          mine.add(s);
        }
      }
    }
    return new StageCapture(
        appId,
        stageId,
        stageAttempt,
        shuffleIds == null ? new int[0] : shuffleIds,
        algorithm == null ? "" : algorithm,
        k,
        bytesPerSecond,
        backboneBytesPerSecond,
        hosts == null ? List.of() : hosts,
        registeredBytes == null ? new long[0][0] : registeredBytes,
        realisedBytes == null ? new long[0][0] : realisedBytes,
        firstDemandMs,
        endMs,
        firstPlan == null ? List.of() : List.of(firstPlan),
        mine,
        List.of(),
        betaSeconds,
        hostPaths == null ? List.of() : hostPaths,
        links == null ? List.of() : links,
        linkSeries == null ? List.of() : linkSeries,
        network == null ? NetworkFigures.NONE : network);
  }
}
