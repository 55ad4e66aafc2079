package io.wanshuffle.it.app;

import io.wanshuffle.it.experiment.Experiment;
import io.wanshuffle.it.experiment.Submitted;
import io.wanshuffle.it.links.LinkLoad;
import io.wanshuffle.it.links.TopologyLinks;
import io.wanshuffle.it.net.BackboneTrace;
import io.wanshuffle.spark.capture.CaptureFiles;
import io.wanshuffle.spark.capture.FlowCapture;
import io.wanshuffle.spark.capture.FlowOverlap;
import io.wanshuffle.spark.capture.StageCapture;
import io.wanshuffle.spark.capture.StepCapture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The figures of one {@code run-app} run, from outside the application: its Spark event log (stage
 * times, shuffle metrics), the backbone's own counters, every link's counters, the plugin's capture
 * (steps and gated flows, the flows on each link) and its stdout.
 *
 * @param variant {@code default} (Spark's sort shuffle) or the wan-shuffle algorithm
 * @param run the run's number within its variant, from 1
 * @param failure null if the application exited with 0, else why not
 * @param log the application's event log (null if it wrote none: it failed before its SparkContext
 *     started)
 * @param wallSeconds spark-submit's start to its end, s (JVM start and the application's own work
 *     included)
 * @param aToBBytes bytes the backbone carried from cluster A to B during the run (-1 on the
 *     loopback testbed)
 * @param bToABytes bytes it carried from B to A (-1 on the loopback testbed)
 * @param peakBitsPerSecond the busier direction's best 1 s on the backbone, bits/s (-1 on the
 *     loopback testbed)
 * @param retransmitPercent TCP segments retransmitted by every host, % of those sent (-1 on the
 *     loopback testbed)
 * @param steps steps the plugin granted (0 without the plugin)
 * @param k the plugin's k, most cross-cluster flows at once per backbone direction (0 without the
 *     plugin)
 * @param gatedAtOnceAToB most gated flows open at once from A to B (the step contract: at most k)
 * @param gatedAtOnceBToA most gated flows open at once from B to A
 * @param stdoutSha256 SHA-256 of the application's stdout, hex
 * @param links per link of the testbed's topology ({@link LinkLoad#of}): capacity in flows, most
 *     gated flows at once (null for a run without gated flows), and over the shuffle-reading stages
 *     (the whole run without them) bytes and utilisation (null on the loopback testbed); empty when
 *     the topology was not read
 * @param network the run's cross-site transfer phase, measured and predicted, and the network the
 *     plugin measured ({@link RunNetwork#NONE} when not known)
 */
public record AppFigures(
    String variant,
    int run,
    String failure,
    EventLog log,
    double wallSeconds,
    long aToBBytes,
    long bToABytes,
    double peakBitsPerSecond,
    double retransmitPercent,
    int steps,
    int k,
    int gatedAtOnceAToB,
    int gatedAtOnceBToA,
    String stdoutSha256,
    Map<String, LinkLoad> links,
    RunNetwork network) {

  /** Copies the link map, keeping its order. */
  public AppFigures {
    links = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(links));
    network = network == null ? RunNetwork.NONE : network;
  }

  /**
   * Reads one run's figures without link figures.
   *
   * @param variant the run's variant
   * @param run its number within the variant
   * @param s what {@link Experiment#submit} returned
   * @param aHosts addresses of cluster A's hosts (a flow from one of them goes A to B)
   * @return the figures
   * @throws IOException if the event log, the capture or stdout cannot be read
   */
  public static AppFigures of(String variant, int run, Submitted s, Set<String> aHosts)
      throws IOException {
    return of(variant, run, s, aHosts, null);
  }

  /**
   * Reads one run's figures.
   *
   * @param variant the run's variant
   * @param run its number within the variant
   * @param s what {@link Experiment#submit} returned
   * @param aHosts addresses of the map sites' hosts (a flow from one of them counts as A to B, any
   *     other as B to A)
   * @param model the testbed's links, or null for no link figures
   * @return the figures
   * @throws IOException if the event log, the capture or stdout cannot be read
   */
  public static AppFigures of(
      String variant, int run, Submitted s, Set<String> aHosts, TopologyLinks model)
      throws IOException {
    EventLog log = s.eventLog() == null ? null : EventLog.read(s.eventLog());
    BackboneTrace b = s.backbone();
    long aToB = b == null ? -1 : b.bytes(BackboneTrace.Direction.A_TO_B, s.startMs(), s.endMs());
    long bToA = b == null ? -1 : b.bytes(BackboneTrace.Direction.B_TO_A, s.startMs(), s.endMs());
    double peak =
        b == null
            ? -1
            : Math.max(
                b.peakBitsPerSecond(BackboneTrace.Direction.A_TO_B, 1000),
                b.peakBitsPerSecond(BackboneTrace.Direction.B_TO_A, 1000));
    double retrans = -1;
    if (b != null) {
      long sent =
          b.sentSegments(BackboneTrace.Direction.A_TO_B)
              + b.sentSegments(BackboneTrace.Direction.B_TO_A);
      long again =
          b.retransmittedSegments(BackboneTrace.Direction.A_TO_B)
              + b.retransmittedSegments(BackboneTrace.Direction.B_TO_A);
      retrans = sent == 0 ? 0 : 100.0 * again / sent;
    }
    List<FlowCapture> aToBFlows = new ArrayList<>();
    List<FlowCapture> bToAFlows = new ArrayList<>();
    int k = 0;
    int steps = 0;
    List<StageCapture> captured = new ArrayList<>();
    // one capture folder per application: a driver that runs several SparkContexts one after
    // another has several,
    // each numbering its steps from 1
    for (List<StageCapture> app : captures(s.captureDir())) {
      Set<Long> stepIds = new HashSet<>();
      captured.addAll(app);
      for (StageCapture c : app) {
        k = Math.max(k, c.k());
        c.steps().stream().map(StepCapture::stepId).forEach(stepIds::add);
        for (FlowCapture f : c.flows()) {
          if (f.stepId() > 0) {
            (aHosts.contains(f.srcHost()) ? aToBFlows : bToAFlows).add(f);
          }
        }
      }
      steps += stepIds.size();
    }
    Map<String, LinkLoad> links = Map.of();
    if (model != null) {
      List<FlowCapture> gated = new ArrayList<>(aToBFlows);
      gated.addAll(bToAFlows);
      links =
          LinkLoad.of(
              model,
              gated.isEmpty() ? null : gated,
              s.links(),
              log == null ? List.of() : shuffleReadWindows(log));
    }
    return new AppFigures(
        variant,
        run,
        s.failure(),
        log,
        (s.endMs() - s.startMs()) / 1000.0,
        aToB,
        bToA,
        peak,
        retrans,
        steps,
        k,
        FlowOverlap.of(aToBFlows).maxPairs(),
        FlowOverlap.of(bToAFlows).maxPairs(),
        sha256(s.stdout()),
        links,
        network(captured, b, log));
  }

  /**
   * The run's network figures: from its captured stages, else its transfer phase from the
   * backbone's counters over the shuffle-reading stages ({@link RunNetwork#fromBackbone}).
   */
  static RunNetwork network(List<StageCapture> captured, BackboneTrace b, EventLog log) {
    RunNetwork n = RunNetwork.fromCaptures(captured);
    if (n.transferPhaseSeconds() == null && b != null && log != null) {
      return new RunNetwork(
          RunNetwork.fromBackbone(b, shuffleReadWindows(log)),
          n.predictedScheduledSeconds(),
          n.predictedDefaultSeconds(),
          n.betaSeconds(),
          n.measuredRates());
    }
    return n;
  }

  /**
   * @param log an application's event log
   * @return the intervals during which a shuffle-reading stage ran, {from, to} epoch ms,
   *     overlapping stages merged, in time order
   */
  static List<long[]> shuffleReadWindows(EventLog log) {
    List<long[]> spans = new ArrayList<>();
    for (StageRun st : log.shuffleReadStages()) {
      if (st.seconds() > 0) {
        spans.add(new long[] {st.submittedMs(), st.completedMs()});
      }
    }
    spans.sort((a, b) -> Long.compare(a[0], b[0]));
    List<long[]> merged = new ArrayList<>();
    for (long[] w : spans) {
      long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && w[0] <= last[1]) {
        last[1] = Math.max(last[1], w[1]);
      } else {
        merged.add(w.clone());
      }
    }
    return merged;
  }

  /**
   * @return the largest flows / capacity over the links ({@link LinkLoad#maxFlowsOverCapacity}),
   *     null for a run without gated flows or link figures
   */
  public Double maxFlowsOverCapacity() {
    return LinkLoad.maxFlowsOverCapacity(links);
  }

  /**
   * @return the stages that read shuffle data, summed submission to completion, s (0 without an
   *     event log)
   */
  public double shuffleReadStageSeconds() {
    return log == null ? 0 : log.shuffleReadStages().stream().mapToDouble(StageRun::seconds).sum();
  }

  /**
   * @return shuffle bytes fetched from other executors, over all stages (0 without an event log)
   */
  public long remoteShuffleBytes() {
    return log == null ? 0 : log.stages().stream().mapToLong(StageRun::remoteBytesRead).sum();
  }

  /**
   * @return true when the run had the plugin's capture of gated flows within k each way (vacuously
   *     without one)
   */
  public boolean withinK() {
    return k == 0 || (gatedAtOnceAToB <= k && gatedAtOnceBToA <= k);
  }

  /**
   * @return the captured stages of each application (one folder each) in the capture folder
   */
  private static List<List<StageCapture>> captures(Path dir) throws IOException {
    List<List<StageCapture>> out = new ArrayList<>();
    if (dir == null || !Files.isDirectory(dir)) {
      return out;
    }
    try (Stream<Path> apps = Files.list(dir)) {
      for (Path app : apps.filter(Files::isDirectory).sorted().toList()) {
        out.add(CaptureFiles.readStages(app));
      }
    }
    return out;
  }

  private static String sha256(Path file) throws IOException {
    if (!Files.exists(file)) {
      return "";
    }
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
