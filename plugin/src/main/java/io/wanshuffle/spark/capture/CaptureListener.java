package io.wanshuffle.spark.capture;

import io.wanshuffle.spark.config.CaptureSettings;
import io.wanshuffle.spark.config.ConfigValueException;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.event.CoordinatorInfo;
import io.wanshuffle.spark.coordinator.event.CoordinatorListener;
import io.wanshuffle.spark.coordinator.event.DemandEvent;
import io.wanshuffle.spark.coordinator.event.FlowGrant;
import io.wanshuffle.spark.coordinator.event.PlanEvent;
import io.wanshuffle.spark.coordinator.event.ShareChange;
import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.event.StageSummary;
import io.wanshuffle.spark.coordinator.event.StepEvent;
import io.wanshuffle.spark.coordinator.event.TransferRecord;
import io.wanshuffle.spark.coordinator.event.WindowChange;
import io.wanshuffle.spark.coordinator.network.MeasuringListener;
import io.wanshuffle.spark.measure.ConfiguredValueCheck;
import io.wanshuffle.spark.measure.NetworkEstimate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The capture: a {@link CoordinatorListener} that records, for every reduce stage with
 * cross-cluster traffic, the transfer matrix, the plans, the realised steps and flows, and for the
 * application the shared links' windows and its shares of them over time ({@link LinkWindows}), and
 * publishes them three ways (docs/capture.md):
 *
 * <ol>
 *   <li>files under {@link Settings#CAPTURE_DIR} when set: per stage a Kryo {@link StageCapture}
 *       and the matrix CSV that {@code ./wan-shuffle plan --rate} reads, plus the application's
 *       flow log and link log ({@link CaptureFiles});
 *   <li>SparkListener events {@link WanShuffleStepCompleted}, {@link WanShuffleStageCaptured} and
 *       {@link WanShuffleLinkChanged} on the driver's listener bus (event log, History Server),
 *       unless {@link Settings#CAPTURE_EVENTS} is {@code false};
 *   <li>metrics in Spark's metrics system ({@link WanShuffleMetricsSource}), unless {@link
 *       Settings#CAPTURE_METRICS} is {@code false}.
 * </ol>
 *
 * Callbacks run on the coordinator thread (see {@link CoordinatorListener}); they only update
 * in-memory state, post events and hand file writes to a {@link CaptureWriter} (one background
 * thread), which {@link #onCoordinatorStop()} drains (at most 30 s). A failing file write is logged
 * once and the capture carries on without files; it never affects the shuffle.
 */
public final class CaptureListener implements CoordinatorListener {
  private static final Logger LOG = LoggerFactory.getLogger(CaptureListener.class);
  private static final int KEEP = 4096;

  private final Path captureDir;
  private final boolean postEvents;
  private final boolean registerMetrics;
  private final WanShuffleMetricsSource metrics = new WanShuffleMetricsSource();

  private SparkContext sc;
  private String appId = "app";
  // the application's configured platform at the coordinator's start, recorded with every stage as
  // its configuration; what a stage was planned with (measured β and rates adopted since) is in its
  // NetworkFigures' planned values, from the coordinator's prediction event
  private String algorithm = "";
  private int k;
  private long baseSpeed;
  private long backboneRate;
  private double betaSeconds;
  private io.wanshuffle.spark.topology.LinkModel links;
  private MeasuringListener measuring;

  /** The network measured from the realised flows: the coordinator's, else {@link #measuring}'s. */
  private java.util.function.Supplier<NetworkEstimate> network = () -> NetworkEstimate.EMPTY;

  private ConfiguredValueCheck valueCheck;
  private Path appDir;
  private CaptureWriter writer;

  private final Map<Long, StageRef> stageOfTask = new HashMap<>();
  private final Map<Long, Long> waitingSince = new HashMap<>();
  private final Map<Long, PlanCapture> plans = bounded();
  private final Map<Long, StepState> steps = bounded();
  private final Map<StageRef, StageState> stages = new HashMap<>();
  private final Map<StageRef, double[]> predictions = new HashMap<>();
  private final Map<StageRef, String> decisions = new HashMap<>();
  private final LinkWindows linkWindows = new LinkWindows(this::linkChanged);

  private static final class StepState {
    final StepEvent granted;
    long endMs;
    boolean deadlinePassed;
    long realised;

    StepState(StepEvent granted) {
      this.granted = granted;
    }

    StepCapture toCapture() {
      List<StepCapture.Grant> g = new ArrayList<>();
      for (FlowGrant f : granted.flows()) {
        g.add(new StepCapture.Grant(f.srcHost(), f.dstHost(), f.bytes()));
      }
      return new StepCapture(
          granted.stepId(),
          granted.planId(),
          g,
          granted.grantedAtMs(),
          granted.deadlineMs(),
          endMs,
          deadlinePassed,
          realised);
    }
  }

  private static final class StageState {
    final TreeSet<Long> stepIds = new TreeSet<>();
    final List<FlowCapture> flows = new ArrayList<>();
  }

  private static <K, V> Map<K, V> bounded() {
    return new LinkedHashMap<>() {
      @Override
      protected boolean removeEldestEntry(Map.Entry<K, V> e) {
        return size() > KEEP;
      }
    };
  }

  /**
   * Reads and validates the {@code spark.wanshuffle.capture.*} keys.
   *
   * @param conf the application's configuration
   * @throws ConfigValueException naming the key and value if a boolean key is not {@code
   *     true}/{@code false} or the capture folder cannot be created
   */
  public CaptureListener(SparkConf conf) {
    postEvents = CaptureSettings.CAPTURE_EVENTS.get(conf);
    registerMetrics = CaptureSettings.CAPTURE_METRICS.get(conf);
    String dir = CaptureSettings.CAPTURE_DIR.get(conf).orElse("");
    if (dir.isEmpty()) {
      captureDir = null;
    } else {
      try {
        captureDir = Files.createDirectories(Path.of(dir)).toAbsolutePath();
      } catch (IOException | RuntimeException e) {
        throw new ConfigValueException(
            CaptureSettings.CAPTURE_DIR.key(),
            dir,
            "a folder that can be created and written (" + e + ")");
      }
      if (!Files.isWritable(captureDir)) {
        throw new ConfigValueException(CaptureSettings.CAPTURE_DIR.key(), dir, "a writable folder");
      }
    }
  }

  /**
   * @return the metrics source (registered with Spark unless {@link Settings#CAPTURE_METRICS} is
   *     false)
   */
  public WanShuffleMetricsSource metrics() {
    return metrics;
  }

  /**
   * @return this application's capture folder, or null when no files are written
   */
  public Path appDir() {
    return appDir;
  }

  @Override
  public void onCoordinatorStart(CoordinatorInfo info) {
    sc = info.sparkContext();
    WanShuffleConf c = info.conf();
    algorithm = c.get(Settings.ALGORITHM);
    betaSeconds = c.betaSeconds();
    links = info.links();
    k = links != null ? links.k() : c.k();
    // the coordinator's own measurement when it started this capture (one estimate per new flow
    // for both); a meter of the capture's own only without one
    measuring = info.network() == null && links != null ? new MeasuringListener(links) : null;
    network =
        info.network() != null
            ? info.network()
            : measuring != null ? measuring::estimate : () -> NetworkEstimate.EMPTY;
    valueCheck =
        links != null
            ? new ConfiguredValueCheck(
                links,
                c.betaAuto() ? 0 : c.betaSeconds(),
                Settings.BETA.key(),
                c.get(Settings.NIC_RATE).is(Settings.AUTO)
                    ? null
                    : Settings.NIC_RATE.key() + " / " + Settings.NIC_RATES.key(),
                c.get(Settings.BACKBONE_RATE).is(Settings.AUTO)
                    ? null
                    : Settings.BACKBONE_RATE.key(),
                links.source().startsWith(Settings.TOPOLOGY_FILE.key()) ? links.source() : null)
            : null;
    baseSpeed = links != null ? links.baseSpeed() : c.baseSpeed();
    backboneRate = links != null ? (long) links.k() * links.baseSpeed() : c.backboneRate();
    if (sc != null) {
      appId = sc.applicationId();
    } else {
      appId = info.sparkConf().get("spark.app.id", "app");
    }
    if (registerMetrics && sc != null) {
      sc.env().metricsSystem().registerSource(metrics);
    }
    if (captureDir != null) {
      appDir = CaptureFiles.appDir(captureDir, appId);
      writer = new CaptureWriter(appDir);
      LOG.info("wan-shuffle capture: writing {}", appDir);
    }
  }

  @Override
  public void onDemandRegistered(DemandEvent e) {
    stageOfTask.put(e.taskAttemptId(), e.stage());
    waitingSince.putIfAbsent(e.taskAttemptId(), e.atMs());
    stages.computeIfAbsent(e.stage(), s -> new StageState());
    metrics.demands.inc();
    metrics.registeredBytes.inc(e.totalBytes());
  }

  @Override
  public void onPlanComputed(PlanEvent e) {
    plans.put(e.planId(), PlanCapture.of(e));
    metrics.plans.inc();
    metrics.planTimeMicros.update(e.planNanos() / 1000);
  }

  /** Keeps the stage's one prediction, made by the coordinator at its first plan. */
  @Override
  public void onStagePredicted(StageRef stage, double scheduledSeconds, double defaultSeconds) {
    predictions.putIfAbsent(stage, new double[] {scheduledSeconds, defaultSeconds});
  }

  @Override
  public void onStageGated(
      StageRef stage,
      boolean gated,
      double scheduledSeconds,
      double defaultSeconds,
      String reason) {
    predictions.putIfAbsent(stage, new double[] {scheduledSeconds, defaultSeconds});
    decisions.put(stage, reason);
  }

  @Override
  public void onStepGranted(StepEvent e) {
    if (measuring != null) {
      measuring.onStepGranted(e);
    }
    steps.put(e.stepId(), new StepState(e));
    for (long t : e.taskAttemptIds()) {
      Long since = waitingSince.remove(t);
      if (since != null) {
        metrics.grantWaitMs.update(Math.max(0, e.grantedAtMs() - since));
      }
      StageRef st = stageOfTask.get(t);
      if (st != null) {
        stages.computeIfAbsent(st, x -> new StageState()).stepIds.add(e.stepId());
      }
    }
  }

  @Override
  public void onTransferRealised(TransferRecord r) {
    if (measuring != null) {
      measuring.onTransferRealised(r);
    }
    stageOfTask.put(r.taskAttemptId(), r.stage());
    StageState st = stages.computeIfAbsent(r.stage(), x -> new StageState());
    StepState step = r.stepId() > 0 ? steps.get(r.stepId()) : null;
    if (r.stepId() > 0) {
      st.stepIds.add(r.stepId());
    }
    if (r.stalled()) {
      metrics.stalledFlows.inc();
    }
    List<FlowCapture> fresh = new ArrayList<>();
    for (int i = 0; i < r.srcHosts().size(); i++) {
      long b = r.bytes()[i];
      FlowCapture f =
          new FlowCapture(
              r.stepId(),
              r.stage().stageId(),
              r.stage().attempt(),
              r.shuffleId(),
              r.taskAttemptId(),
              r.srcHosts().get(i),
              r.dstHost(),
              b,
              r.startMs(),
              r.endMs(),
              r.handedOnMs(),
              r.stalledMs());
      st.flows.add(f);
      fresh.add(f);
      if (step != null) {
        step.realised += b;
      }
      if (r.stepId() > 0) {
        metrics.realisedBytes.inc(b);
      } else {
        metrics.ungatedBytes.inc(b);
      }
    }
    if (writer != null) {
      writer.appendFlows(fresh);
    }
  }

  @Override
  public void onStepDone(StepEvent e, long endMs, boolean deadlinePassed) {
    StepState s = steps.computeIfAbsent(e.stepId(), x -> new StepState(e));
    s.endMs = endMs;
    s.deadlinePassed = deadlinePassed;
    long durMs = Math.max(1, endMs - e.grantedAtMs());
    double util = backboneRate > 0 ? s.realised / (backboneRate * (durMs / 1000.0)) : 0;
    metrics.steps.inc();
    if (deadlinePassed) {
      metrics.stepsClosedByDeadline.inc();
    }
    metrics.stepBytes.update(s.realised);
    metrics.stepDurationMs.update(durMs);
    metrics.recordUtilisation(util);
    if (postEvents && sc != null) {
      StepCapture c = s.toCapture();
      sc.listenerBus()
          .post(
              new WanShuffleStepCompleted(
                  appId,
                  e.stepId(),
                  e.planId(),
                  c.flows(),
                  e.grantedAtMs(),
                  e.deadlineMs(),
                  endMs,
                  deadlinePassed,
                  s.realised,
                  util));
    }
  }

  @Override
  public void onDemandReleased(
      long demandId, long taskAttemptId, long unrealisedBytes, String reason) {
    waitingSince.remove(taskAttemptId);
  }

  @Override
  public void onStageDone(StageSummary sum) {
    StageCapture bare = stageCapture(sum);
    stageOfTask.values().removeIf(sum.stage()::equals);
    boolean traffic =
        bare.totalRegisteredBytes() > 0 || bare.totalRealisedBytes() > 0 || !bare.flows().isEmpty();
    if (!traffic) {
      return;
    }
    LinkLoads loads = linkLoads(bare);
    StageCapture linked = loads != null ? bare.withLinks(betaSeconds, loads) : bare;
    StageCapture cap =
        linked.withNetwork(
            network(linked, predictions.remove(sum.stage()), decisions.remove(sum.stage())));
    Path file = writer != null ? writer.stageFile(cap) : null;
    if (postEvents && sc != null) {
      sc.listenerBus().post(WanShuffleStageCaptured.of(cap, file));
    }
    if (writer != null) {
      writer.writeStage(cap, loads, baseSpeed, k);
    }
  }

  /**
   * The stage's network figures: the measurement now, the predictions made at its first plan, the
   * measured transfer phase, how its reads ran ({@code decided}: the coordinator's decision and
   * reason, null when it took none); logged on one INFO line and recorded in the metrics.
   */
  private NetworkFigures network(StageCapture cap, double[] predicted, String decided) {
    NetworkEstimate est = network.get();
    double[] p = predicted != null ? predicted : new double[] {Double.NaN, Double.NaN};
    double phase = transferPhaseSeconds(cap.flows());
    String decision = decided != null ? decided : cap.steps().isEmpty() ? "ungated" : "gated";
    PlanCapture last = cap.plans().isEmpty() ? null : cap.plans().get(cap.plans().size() - 1);
    NetworkFigures f = NetworkFigures.of(est, p[0], p[1], phase, decision, last);
    metrics.recordMeasurement(est.betaSeconds(), est.bytesPerSecond());
    if (valueCheck != null) {
      for (ConfiguredValueCheck.Contradiction x : valueCheck.check(est)) {
        LOG.warn(x.message());
      }
    }
    metrics.recordStage(phase, p[0], p[1]);
    LOG.info(
        String.format(
            java.util.Locale.ROOT,
            "wan-shuffle stage %d.%d (%s): transfer phase %.3f s, predicted %.3f s scheduled, %.3f s"
                + " Spark's default; planned with %s; measured %s",
            cap.stageId(),
            cap.stageAttempt(),
            decision,
            phase,
            p[0],
            p[1],
            f.plannedKnown()
                ? String.format(
                    java.util.Locale.ROOT,
                    "k %d, base speed %d B/s, beta %.3f s",
                    f.plannedK(),
                    f.plannedBytesPerSecond(),
                    f.plannedBetaSeconds())
                : "no plan",
            est.describe()));
    return f;
  }

  /**
   * @param flows a stage's flows
   * @return its first fetch start to its last byte, seconds; NaN without flows
   */
  static double transferPhaseSeconds(List<FlowCapture> flows) {
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (FlowCapture f : flows) {
      if (f.bytes() > 0) {
        first = Math.min(first, f.startMs());
        last = Math.max(last, f.endMs());
      }
    }
    return first <= last ? (last - first) / 1000.0 : Double.NaN;
  }

  /**
   * The stage's traffic on the link model; a host the model cannot route is logged once per stage
   * and the stage goes without links.
   *
   * @return the link loads, or null without a link model or when a host cannot be routed
   */
  private LinkLoads linkLoads(StageCapture cap) {
    if (links == null) {
      return null;
    }
    try {
      return LinkLoads.of(links, cap);
    } catch (RuntimeException e) {
      LOG.warn(
          "wan-shuffle capture: stage {}.{}: no link loads: {}",
          cap.stageId(),
          cap.stageAttempt(),
          e.getMessage());
      return null;
    }
  }

  /** Assembles the stage's capture from the summary and what was recorded for it. */
  StageCapture stageCapture(StageSummary sum) {
    StageState st = stages.remove(sum.stage());
    if (st == null) {
      st = new StageState();
    }
    List<StepCapture> stepList = new ArrayList<>();
    TreeSet<Long> planIds = new TreeSet<>();
    for (long id : st.stepIds) {
      StepState s = steps.get(id);
      if (s != null) {
        stepList.add(s.toCapture());
        planIds.add(s.granted.planId());
      }
    }
    List<PlanCapture> planList = new ArrayList<>();
    for (long id : planIds) {
      PlanCapture p = plans.get(id);
      if (p != null) {
        planList.add(p);
      }
    }
    List<FlowCapture> flows = new ArrayList<>(st.flows);
    flows.sort(
        Comparator.comparingLong(FlowCapture::startMs).thenComparingLong(FlowCapture::stepId));
    return new StageCapture(
        appId,
        sum.stage().stageId(),
        sum.stage().attempt(),
        sum.shuffleIds(),
        algorithm,
        k,
        baseSpeed,
        backboneRate,
        sum.hosts(),
        sum.registeredBytes(),
        sum.realisedBytes(),
        sum.firstDemandMs(),
        sum.endMs(),
        planList,
        stepList,
        flows,
        0,
        List.of(),
        List.of(),
        List.of(),
        NetworkFigures.NONE);
  }

  /** Records a link's window that moved (the link log, an event). */
  @Override
  public void onWindowChanged(WindowChange change) {
    linkWindows.window(change);
  }

  /** Records this application's share of a link that moved (the link log, an event). */
  @Override
  public void onShareChanged(ShareChange change) {
    linkWindows.share(change);
  }

  private void linkChanged(LinkChange c) {
    if (writer != null) {
      writer.appendLinkChange(c);
    }
    if (postEvents && sc != null) {
      sc.listenerBus().post(new WanShuffleLinkChanged(appId, c));
    }
  }

  @Override
  public void onCoordinatorStop() {
    if (registerMetrics && sc != null) {
      try {
        sc.env().metricsSystem().removeSource(metrics);
      } catch (RuntimeException e) {
        LOG.debug("metrics source already gone", e);
      }
    }
    if (writer != null) {
      writer.close();
    }
  }
}
