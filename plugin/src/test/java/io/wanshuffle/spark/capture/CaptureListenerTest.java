package io.wanshuffle.spark.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.spark.config.CaptureSettings;
import io.wanshuffle.spark.config.ConfigValueException;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.event.CoordinatorInfo;
import io.wanshuffle.spark.coordinator.event.DemandEvent;
import io.wanshuffle.spark.coordinator.event.FlowGrant;
import io.wanshuffle.spark.coordinator.event.PlanEvent;
import io.wanshuffle.spark.coordinator.event.ResidualBytes;
import io.wanshuffle.spark.coordinator.event.ShareChange;
import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.event.StageSummary;
import io.wanshuffle.spark.coordinator.event.StepEvent;
import io.wanshuffle.spark.coordinator.event.TransferRecord;
import io.wanshuffle.spark.coordinator.event.WindowChange;
import io.wanshuffle.spark.measure.NetworkEstimate;
import io.wanshuffle.spark.topology.LinkModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drives the capture with the callback sequence of one gated stage (coordinator contract order).
 */
class CaptureListenerTest {
  @TempDir Path dir;

  static final StageRef STAGE = new StageRef(5, 0);

  private CaptureListener start(SparkConf c) {
    c.set(Settings.ALGORITHM.key(), "t")
        .set(Settings.K.key(), "2")
        .set(Settings.BACKBONE_RATE.key(), "2000b")
        .set("spark.app.id", "app-42");
    CaptureListener l = new CaptureListener(c);
    WanShuffleConf conf = WanShuffleConf.from(c, Set.of("t"));
    l.onCoordinatorStart(
        new CoordinatorInfo(c, conf, LinkModel.flat(conf, h -> h.substring(0, 1)), null));
    return l;
  }

  private static PlanEvent plan(long id, long at, long[][] residual) {
    Schedule s =
        new Schedule(List.of(Step.of(List.of(new Transfer(0, 0, 1.0), new Transfer(1, 1, 0.5)))));
    return new PlanEvent(
        id,
        at,
        "t",
        List.of("a1", "a2"),
        List.of("b1", "b2"),
        ResidualBytes.ofDense(residual),
        100,
        Platform.onePort(2, 0.05, 2, 2),
        s,
        5000);
  }

  /** Two tasks on b1/b2 fetch from a1/a2 over two steps; one ungated record. */
  private static void runStage(CaptureListener l) {
    l.onDemandRegistered(
        new DemandEvent(
            1, STAGE, 3, 11, "e1", "b1", List.of("a1", "a2"), new long[] {100, 50}, 1000));
    l.onDemandRegistered(
        new DemandEvent(2, STAGE, 3, 12, "e2", "b2", List.of("a2"), new long[] {80}, 1010));
    l.onPlanComputed(plan(1, 1100, new long[][] {{100, 0}, {50, 80}}));
    // the coordinator's one prediction of the stage, made at its first plan: 100 bytes a1 -> b1
    // and 80 bytes a2 -> b2 side by side, then a2 -> b1's 50 bytes, at the configured 1000 B/s per
    // flow with β = 0.05 s
    l.onStagePredicted(STAGE, 0.05 + 0.1, 0.13);
    StepEvent s1 =
        new StepEvent(
            1,
            1,
            List.of(new FlowGrant("a1", "b1", 100), new FlowGrant("a2", "b2", 80)),
            new long[] {11, 12},
            1200,
            5000);
    l.onStepGranted(s1);
    l.onTransferRealised(
        new TransferRecord(
            1, STAGE, 3, 11, "b1", List.of("a1"), new long[] {100}, 1210, 1300, 1300));
    l.onTransferRealised(
        new TransferRecord(
            1, STAGE, 3, 12, "b2", List.of("a2"), new long[] {80}, 1205, 1320, 1320));
    l.onStepDone(s1, 1400, false);
    l.onPlanComputed(plan(2, 1400, new long[][] {{0, 0}, {50, 0}}));
    l.onStagePredicted(STAGE, 9, 9); // recorded once: a later prediction does not replace it
    StepEvent s2 =
        new StepEvent(2, 2, List.of(new FlowGrant("a2", "b1", 50)), new long[] {11}, 1410, 6000);
    l.onStepGranted(s2);
    l.onTransferRealised(
        new TransferRecord(
            2, STAGE, 3, 11, "b1", List.of("a2"), new long[] {50}, 1420, 1500, 1500));
    l.onStepDone(s2, 6000, true);
    l.onTransferRealised(
        new TransferRecord(0, STAGE, 3, 13, "b1", List.of("a1"), new long[] {7}, 1600, 1650, 1650));
    List<String> hosts = List.of("a1", "a2", "b1", "b2");
    long[][] reg = {{0, 0, 100, 0}, {0, 0, 50, 80}, {0, 0, 0, 0}, {0, 0, 0, 0}};
    long[][] real = {{0, 0, 107, 0}, {0, 0, 50, 80}, {0, 0, 0, 0}, {0, 0, 0, 0}};
    l.onStageDone(new StageSummary(STAGE, new int[] {3}, hosts, reg, real, 2, 1000, 7000));
  }

  @Test
  void writesTheStageCaptureMatrixCsvAndFlowLog() throws Exception {
    CaptureListener l =
        start(new SparkConf(false).set(CaptureSettings.CAPTURE_DIR.key(), dir.toString()));
    runStage(l);
    // a stage without cross-cluster traffic leaves no file
    l.onStageDone(
        new StageSummary(
            new StageRef(6, 0),
            new int[] {4},
            List.of("a1"),
            new long[][] {{0}},
            new long[][] {{0}},
            0,
            0,
            7100));
    l.onCoordinatorStop();

    Path app = dir.resolve("app-42");
    assertEquals(app, l.appDir());
    List<StageCapture> stages = CaptureFiles.readStages(app);
    assertEquals(1, stages.size());
    StageCapture c = stages.get(0);
    assertEquals(5, c.stageId());
    assertEquals("app-42", c.appId());
    assertEquals(2, c.k());
    assertEquals(230, c.totalRegisteredBytes());
    assertEquals(List.of(1L, 2L), c.plans().stream().map(PlanCapture::planId).toList());
    assertEquals(List.of(1L, 2L), c.steps().stream().map(StepCapture::stepId).toList());
    assertEquals(180, c.steps().get(0).realisedBytes());
    assertTrue(c.steps().get(1).deadlinePassed());
    assertEquals(4, c.flows().size());
    assertEquals(0, c.flows().get(3).stepId(), "the ungated record is kept with step 0");

    HostMatrix m = CaptureFiles.readMatrix(app.resolve("stage-5.0.matrix.csv"));
    assertEquals(List.of("a1", "a2"), m.senders());
    assertEquals(List.of("b1", "b2"), m.receivers());
    assertArrayEquals(new long[][] {{100, 0}, {50, 80}}, m.bytes());
    assertTrue(Files.readString(app.resolve("stage-5.0.matrix.csv")).contains("--rate 1000 --k 2"));

    List<FlowCapture> log = CaptureFiles.readFlowLog(app.resolve(CaptureFiles.FLOW_LOG));
    assertEquals(4, log.size());
    assertEquals(Set.copyOf(c.flows()), Set.copyOf(log));
    // step 1 had two pairs open at once, step 2 one
    assertEquals(2, FlowOverlap.of(log.stream().filter(f -> f.stepId() > 0).toList()).maxPairs());
    assertFalse(Files.exists(app.resolve("stage-6.0.kryo")));
    // the stage on its links: a -> b crosses a's outgoing and b's incoming backbone side (k = 2
    // flows of 1000 B/s): 230 registered bytes need at least 0.115 s there; step 1 held both
    List<String> links = Files.readAllLines(app.resolve("stage-5.0.links.csv"));
    assertEquals(LinkLoads.LINKS_HEADER, links.get(0));
    assertTrue(links.contains("backbone.out[/a],2,2000,230,237,0.115000,2"), links.toString());
    assertTrue(links.contains("nic.down[b1],2,2000,150,157,0.075000,1"), links.toString());
    List<String> stepLinks = Files.readAllLines(app.resolve("stage-5.0.step-links.csv"));
    assertEquals(LinkLoads.STEP_LINKS_HEADER, stepLinks.get(0));
    assertTrue(stepLinks.contains("1,backbone.in[/b],2"), stepLinks.toString());
    // the stage capture carries the same links, the hosts' sites and the backbone over time
    assertTrue(c.hasLinks());
    assertEquals(List.of("/a", "/a", "/b", "/b"), c.hostPaths());
    LinkFigures out =
        c.links().stream().filter(x -> x.link().equals("backbone.out[/a]")).findFirst().get();
    assertEquals(new LinkFigures("backbone.out[/a]", 2, 2000, 230, 237, 2), out);
    assertEquals(
        List.of("backbone.in[/b]", "backbone.out[/a]"),
        c.linkSeries().stream().map(LinkSeries::link).toList());
    assertEquals(
        237, java.util.Arrays.stream(c.linkSeries().get(1).bytes()).sum(), "every realised byte");
  }

  @Test
  void theStageCarriesTheMeasurementThePredictionsAndItsTransferPhase() throws Exception {
    CaptureListener l =
        start(new SparkConf(false).set(CaptureSettings.CAPTURE_DIR.key(), dir.toString()));
    runStage(l);
    l.onCoordinatorStop();
    NetworkFigures n = CaptureFiles.readStages(dir.resolve("app-42")).get(0).network();
    assertEquals("gated", n.decision());
    // first fetch request at 1205, last byte at 1650
    assertEquals(0.445, n.transferPhaseSeconds(), 1e-9);
    // the coordinator's prediction at the stage's first plan (runStage), not a later one
    assertEquals(0.05 + 0.1, n.predictedScheduledSeconds(), 1e-9);
    assertTrue(n.predictedDefaultSeconds() >= 0.115, "at least the backbone's lower bound");
    // four flows measured, β from the three gated ones (grant to fetch: 10, 5, 10 ms) and the ramp
    assertEquals(4, n.measuredFlows());
    assertTrue(n.measuredBetaSeconds() >= 0.010, String.valueOf(n.measuredBetaSeconds()));
    assertTrue(n.measuredRates().containsKey("backbone.out[/a]"), n.measuredRates().toString());
    WanShuffleMetricsSource m = l.metrics();
    assertArrayEquals(new long[] {445}, m.transferPhaseMs.getSnapshot().getValues());
    assertArrayEquals(new long[] {150}, m.predictedScheduledMs.getSnapshot().getValues());
    assertEquals(
        Math.round(n.measuredBetaSeconds() * 1000),
        m.metricRegistry().getGauges().get("measuredBetaMs").getValue());
    assertTrue(m.metricRegistry().getGauges().containsKey("measuredRate.backbone.out[/a]"));
  }

  @Test
  void theStageTakesTheCoordinatorsMeasurementWhenItHasOne() throws Exception {
    SparkConf c =
        new SparkConf(false)
            .set(CaptureSettings.CAPTURE_DIR.key(), dir.toString())
            .set(Settings.ALGORITHM.key(), "t")
            .set(Settings.K.key(), "2")
            .set(Settings.BACKBONE_RATE.key(), "2000b")
            .set("spark.app.id", "app-42");
    CaptureListener l = new CaptureListener(c);
    WanShuffleConf conf = WanShuffleConf.from(c, Set.of("t"));
    NetworkEstimate coordinators = new NetworkEstimate(0.25, 0.01, 0.02, Map.of(), 9);
    l.onCoordinatorStart(
        new CoordinatorInfo(c, conf, LinkModel.flat(conf, h -> h.substring(0, 1)), null)
            .withNetwork(() -> coordinators));
    runStage(l);
    l.onCoordinatorStop();
    NetworkFigures n = CaptureFiles.readStages(dir.resolve("app-42")).get(0).network();
    assertEquals(9, n.measuredFlows(), "the coordinator's estimate, not one of its own");
    assertEquals(0.25, n.measuredBetaSeconds(), 1e-9);
  }

  @Test
  void metricsCountStepsBytesUtilisationAndGrantWait() {
    CaptureListener l = start(new SparkConf(false));
    runStage(l);
    WanShuffleMetricsSource m = l.metrics();
    assertEquals(2, m.steps.getCount());
    assertEquals(1, m.stepsClosedByDeadline.getCount());
    assertEquals(2, m.plans.getCount());
    assertEquals(2, m.demands.getCount());
    assertEquals(230, m.registeredBytes.getCount());
    assertEquals(230, m.realisedBytes.getCount());
    assertEquals(7, m.ungatedBytes.getCount());
    // task 11 waited 1200-1000, task 12 1200-1010; step 2 is not a first grant
    long[] waits = m.grantWaitMs.getSnapshot().getValues();
    Arrays.sort(waits);
    assertArrayEquals(new long[] {190, 200}, waits);
    long[] stepBytes = m.stepBytes.getSnapshot().getValues();
    Arrays.sort(stepBytes);
    assertArrayEquals(new long[] {50, 180}, stepBytes);
    // last step: 50 bytes in 4590 ms on a 2000 B/s backbone
    assertEquals(
        50 / (2000 * 4.59),
        (Double) m.metricRegistry().getGauges().get("backboneUtilisation").getValue(),
        1e-9);
    // first step: 180 bytes in 200 ms = 900 B/s of 2000 -> 450 per mille
    assertTrue(
        Arrays.stream(m.backboneUtilisationPermille.getSnapshot().getValues())
            .anyMatch(v -> v == 450));
    assertEquals(null, l.appDir(), "no files without capture.dir");
  }

  /**
   * A window that moves, then a share of it, then the window again under the share: each row of the
   * link log carries the link's window and this application's share from then on.
   */
  @Test
  void windowsAndSharesThatMoveAreLoggedWithTheLinksState() throws Exception {
    CaptureListener l =
        start(new SparkConf(false).set(CaptureSettings.CAPTURE_DIR.key(), dir.toString()));
    String out = "backbone.out[/a]";
    l.onWindowChanged(new WindowChange(out, 2, 2, 3, 3000, "under-filled", 1_000));
    l.onWindowChanged(new WindowChange(out, 2, 3, 3, 1500, "slowed, rate only", 1_500));
    l.onShareChanged(new ShareChange(out, 2, 3, 3, 1, 2, 2_000));
    l.onWindowChanged(new WindowChange(out, 2, 3, 2, 2000, "back", 3_000));
    l.onShareChanged(new ShareChange("backbone.in[/b]", 2, 2, 2, 1, 1, 3_500));
    l.onWindowChanged(new WindowChange(out, 2, 2, 3, 3000, "under-filled", 4_000));
    runStage(l);
    l.onCoordinatorStop();
    assertEquals(
        List.of(
            new LinkChange(1_000, out, LinkChange.Kind.WINDOW, 3, 3, 2, -1),
            new LinkChange(2_000, out, LinkChange.Kind.SHARE, 3, 1, 2, 2),
            new LinkChange(3_000, out, LinkChange.Kind.WINDOW, 2, 1, 2, 2),
            new LinkChange(3_500, "backbone.in[/b]", LinkChange.Kind.SHARE, 2, 1, 2, 1),
            new LinkChange(4_000, out, LinkChange.Kind.WINDOW, 3, 1, 2, 2)),
        CaptureFiles.readLinkLog(dir.resolve("app-42").resolve(CaptureFiles.LINK_LOG)));

    CaptureListener quiet =
        start(
            new SparkConf(false)
                .set(CaptureSettings.CAPTURE_DIR.key(), dir.resolve("q").toString()));
    runStage(quiet);
    quiet.onCoordinatorStop();
    Path log = dir.resolve("q").resolve("app-42").resolve(CaptureFiles.LINK_LOG);
    assertEquals(List.of(CaptureFiles.LINK_LOG_HEADER), Files.readAllLines(log), "nothing moved");
  }

  @Test
  void badCaptureKeysFailWithKeyAndValue() throws Exception {
    ConfigValueException e =
        assertThrows(
            ConfigValueException.class,
            () ->
                new CaptureListener(
                    new SparkConf(false).set(CaptureSettings.CAPTURE_EVENTS.key(), "yes")));
    assertEquals("spark.wanshuffle.capture.events = 'yes': true or false", e.getMessage());
    Path file = Files.writeString(dir.resolve("plain-file"), "x");
    e =
        assertThrows(
            ConfigValueException.class,
            () ->
                new CaptureListener(
                    new SparkConf(false)
                        .set(CaptureSettings.CAPTURE_DIR.key(), file.resolve("sub").toString())));
    assertTrue(
        e.getMessage()
            .startsWith(
                "spark.wanshuffle.capture.dir = '"
                    + file.resolve("sub")
                    + "': a folder that can be created and written"),
        e.getMessage());
  }
}
