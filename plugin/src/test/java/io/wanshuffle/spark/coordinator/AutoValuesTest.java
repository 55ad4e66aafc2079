package io.wanshuffle.spark.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.event.CoordinatorListener;
import io.wanshuffle.spark.coordinator.event.ManualTimer;
import io.wanshuffle.spark.coordinator.event.PlanEvent;
import io.wanshuffle.spark.coordinator.network.LiveParameters;
import io.wanshuffle.spark.coordinator.plan.GreedyTestScheduler;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.measure.MeasuredFlow;
import io.wanshuffle.spark.measure.NetworkMeter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class AutoValuesTest {
  private final ManualTimer timer = new ManualTimer();
  private final List<PlanEvent> plans = new ArrayList<>();
  private final CoordinatorListener events =
      new CoordinatorListener() {
        @Override
        public void onPlanComputed(PlanEvent e) {
          plans.add(e);
        }
      };

  private StepCoordinator coordinator(String beta) {
    return coordinator(beta, null);
  }

  private StepCoordinator coordinator(String beta, String k, String... kv) {
    SparkConf c = new SparkConf(false).set(Settings.BETA.key(), beta);
    if (k != null) {
      c.set(Settings.K.key(), k);
    }
    for (int i = 0; i < kv.length; i += 2) {
      c.set(kv[i], kv[i + 1]);
    }
    return coordinatorOf(c);
  }

  /** A coordinator of {@code c} plus the test's algorithm, deadline, window and budget. */
  private StepCoordinator coordinatorOf(SparkConf c) {
    c.set(Settings.ALGORITHM.key(), "greedy-test")
        .set(Settings.STEP_MIN_DEADLINE.key(), "1s")
        .set(Settings.GATHER_WINDOW.key(), "100ms")
        .set(Settings.PLANNING_BUDGET.key(), "0");
    return StepCoordinator.builder(WanShuffleConf.from(c, Set.of("greedy-test")))
        .scheduler(new GreedyTestScheduler())
        .listeners(List.of(events))
        .timer(timer)
        .clock(timer::now)
        .clusters(h -> h.substring(0, 1))
        .build();
  }

  private static RegisterDemand demand(int stage, long task, String dst, String src) {
    return new RegisterDemand(
        stage, 0, 7, task, "e" + task, dst, new String[] {src}, new long[] {1_000_000});
  }

  /** Gated flows a0 -> b0 of 1 MB at 10 MB/s, each granted 200 ms before it starts. */
  private static void measure(NetworkMeter m, int n) {
    long t = 1_000_000;
    for (int i = 0; i < n; i++) {
      m.add(new MeasuredFlow("a0", "b0", 1_000_000, t, t + 200, t + 300));
      t += 1000;
    }
  }

  /**
   * Rounds of 4 flows a(i) -> b(i) at once, 1 MB each in 100 ms: 10 MB/s per NIC, 40 MB/s on the
   * backbone, so k = 4 at a base speed of 10 MB/s.
   */
  private static void measureParallel(NetworkMeter m, int rounds) {
    long t = 1_000_000;
    for (int r = 0; r < rounds; r++) {
      for (int i = 0; i < 4; i++) {
        m.add(new MeasuredFlow("a" + i, "b" + i, 1_000_000, t, t + 200, t + 300));
      }
      t += 1000;
    }
  }

  private PlanEvent plan(StepCoordinator c, int stage) {
    return plan(c, stage, "b1", "a1");
  }

  private PlanEvent plan(StepCoordinator c, int stage, String dst, String src) {
    int before = plans.size();
    c.awaitGrant(AwaitGrant.poll(c.register(demand(stage, stage, dst, src)).demandId()));
    timer.advance(100);
    assertTrue(plans.size() > before, "planned");
    return plans.get(before);
  }

  private double plannedBeta(StepCoordinator c, int stage) {
    return plan(c, stage).platform().beta();
  }

  @Test
  void theSecondStagePlansWithTheMeasuredBeta() {
    StepCoordinator c = coordinator("auto");
    assertEquals(WanShuffleConf.AUTO_BETA_START_SECONDS, plannedBeta(c, 3), 1e-12);
    measure(c.measuring().meter(), WanShuffleConf.AUTO_MIN_FLOWS);
    double measured = c.measuring().estimate().betaSeconds();
    assertTrue(measured >= 0.2, "grant delay 200 ms: " + measured);
    assertEquals(
        WanShuffleConf.AUTO_BETA_START_SECONDS, c.betaSeconds(), 1e-12, "only between stages");
    c.stageCompleted(3, 0);
    assertEquals(measured, c.betaSeconds(), 1e-12);
    assertEquals(measured, plannedBeta(c, 4), 1e-12);
  }

  /**
   * A stage's own flows set the β of its later plans: the measured values are adopted while it
   * runs, at most every {@code ADOPT_EVERY_MS}, not only when it ends.
   */
  @Test
  void aStagesLaterPlansUseTheBetaItsOwnFlowsMeasured() {
    StepCoordinator c = coordinator("auto");
    assertEquals(WanShuffleConf.AUTO_BETA_START_SECONDS, plannedBeta(c, 3), 1e-12);
    measure(c.measuring().meter(), WanShuffleConf.AUTO_MIN_FLOWS);
    double measured = c.measuring().estimate().betaSeconds();
    timer.advance(PlanningRounds.ADOPT_EVERY_MS);
    PlanEvent later = plan(c, 3, "b2", "a2");
    assertEquals(measured, c.betaSeconds(), 1e-12, "adopted in stage 3, which still runs");
    assertTrue(
        later.platform().beta() == measured || plan(c, 3, "b3", "a3").platform().beta() == measured,
        "the stage's later plans use it");
  }

  @Test
  void aMeasuredBetaBelowTheFloorPlansWithTheFloor() {
    StepCoordinator c = coordinator("auto");
    // grant delays of 10 ms: the network is as fast as its round trip
    long t = 1_000_000;
    for (int i = 0; i < WanShuffleConf.AUTO_MIN_FLOWS; i++) {
      c.measuring().meter().add(new MeasuredFlow("a0", "b0", 1_000_000, t, t + 10, t + 110));
      t += 1000;
    }
    double measured = c.measuring().estimate().betaSeconds();
    assertTrue(
        measured > 0 && measured < WanShuffleConf.AUTO_BETA_FLOOR_SECONDS, "measured " + measured);
    c.stageCompleted(3, 0);
    assertEquals(WanShuffleConf.AUTO_BETA_FLOOR_SECONDS, c.betaSeconds(), 1e-12);
    assertEquals(WanShuffleConf.AUTO_BETA_FLOOR_SECONDS, plannedBeta(c, 4), 1e-12);
    // a slower network later: the measured β above the floor is adopted
    measure(c.measuring().meter(), 2 * WanShuffleConf.AUTO_MIN_FLOWS);
    double slower = c.measuring().estimate().betaSeconds();
    assertTrue(slower >= 0.2, "grant delay 200 ms: " + slower);
    c.stageCompleted(4, 0);
    assertEquals(slower, plannedBeta(c, 5), 1e-12);
  }

  @Test
  void tooFewFlowsKeepTheStartValue() {
    StepCoordinator c = coordinator("auto");
    measure(c.measuring().meter(), WanShuffleConf.AUTO_MIN_FLOWS - 1);
    c.stageCompleted(3, 0);
    assertEquals(WanShuffleConf.AUTO_BETA_START_SECONDS, plannedBeta(c, 4), 1e-12);
  }

  @Test
  void aConfiguredBetaIsNeverReplaced() {
    StepCoordinator c = coordinator("30ms");
    measure(c.measuring().meter(), 2 * WanShuffleConf.AUTO_MIN_FLOWS);
    c.stageCompleted(3, 0);
    assertEquals(0.03, c.betaSeconds(), 1e-12);
    assertEquals(0.03, plannedBeta(c, 4), 1e-12);
  }

  @Test
  void theSecondStagePlansWithTheMeasuredK() {
    StepCoordinator c = coordinator("50ms", "auto", Settings.NIC_RATE.key(), "auto");
    measureParallel(c.measuring().meter(), 5);
    c.stageCompleted(3, 0);
    PlanEvent p = plan(c, 4);
    assertEquals(4, p.platform().k(), "40 MB/s backbone over 10 MB/s NICs");
    assertEquals(10_000_000, p.bytesPerSecond());
    assertEquals(0.05, p.platform().beta(), 1e-12, "beta set: kept");
  }

  @Test
  void kStartsFromTheRulesAndSwitchesOnlyWhenNoFlowIsOpen() {
    StepCoordinator c = coordinator("50ms", "auto", Settings.NIC_RATE.key(), "auto");
    PlanEvent first = plan(c, 5);
    assertEquals(10, first.platform().k(), "1 gbit backbone over 100 Mbit NICs");
    assertEquals(12_500_000, first.bytesPerSecond());
    measureParallel(c.measuring().meter(), 5);
    c.stageCompleted(3, 0); // stage 5's flow a1 -> b1 is still open
    assertEquals(12_500_000, plan(c, 4, "b2", "a2").bytesPerSecond());
    c.stageCompleted(5, 0);
    c.stageCompleted(4, 0);
    assertEquals(10_000_000, plan(c, 6).bytesPerSecond(), "switched once no flow was open");
  }

  @Test
  void withConfiguredNicsTheMeasuredBackboneGivesK() {
    // 40 MB/s measured backbone under configured 1 gbit NICs: one flow of 40 MB/s
    StepCoordinator c = coordinator("50ms", "auto", Settings.NIC_RATE.key(), "1gbit");
    measureParallel(c.measuring().meter(), 5);
    c.stageCompleted(3, 0);
    PlanEvent p = plan(c, 4);
    assertEquals(1, p.platform().k());
    assertEquals(40_000_000, p.bytesPerSecond());
  }

  @Test
  void autoRatesWithoutKFollowTheMeasurement() {
    StepCoordinator c =
        coordinator(
            "50ms", null, Settings.NIC_RATE.key(), "auto", Settings.BACKBONE_RATE.key(), "auto");
    PlanEvent first = plan(c, 5);
    assertEquals(10, first.platform().k(), "start: 10 x the 100 Mbit NIC start rate");
    assertEquals(12_500_000, first.bytesPerSecond());
    c.stageCompleted(5, 0);
    measureParallel(c.measuring().meter(), 5);
    c.stageCompleted(3, 0);
    PlanEvent p = plan(c, 4);
    assertEquals(4, p.platform().k());
    assertEquals(10_000_000, p.bytesPerSecond());
  }

  @Test
  void withNothingTypedTheSecondStagePlansWithTheMeasuredBetaAndK() {
    StepCoordinator c = coordinatorOf(new SparkConf(false));
    PlanEvent first = plan(c, 5);
    assertEquals(10, first.platform().k(), "start: 10 x the 100 Mbit NIC start rate");
    assertEquals(WanShuffleConf.AUTO_BETA_START_SECONDS, first.platform().beta(), 1e-12);
    c.stageCompleted(5, 0);
    measureParallel(c.measuring().meter(), 5);
    c.stageCompleted(3, 0);
    PlanEvent p = plan(c, 4);
    assertEquals(4, p.platform().k(), "40 MB/s backbone over 10 MB/s NICs");
    assertEquals(10_000_000, p.bytesPerSecond());
    assertEquals(c.measuring().estimate().betaSeconds(), p.platform().beta(), 1e-12);
    assertTrue(p.platform().beta() >= 0.2, "grant delay 200 ms: " + p.platform().beta());
  }

  @Test
  void registrationAnswersCarryTheBaseSpeedAndDeltaPlansUse() {
    // the executors' gate.minBytes=auto threshold follows them
    StepCoordinator c = coordinatorOf(new SparkConf(false).set(Settings.DELTA.key(), "2"));
    Registered start = c.register(demand(5, 5, "b1", "a1"));
    assertEquals(12_500_000, start.baseSpeed(), "the 100 Mbit start rate");
    assertEquals(2, start.receiverPorts());
    c.awaitGrant(AwaitGrant.poll(start.demandId()));
    timer.advance(100);
    c.stageCompleted(5, 0);
    measureParallel(c.measuring().meter(), 5);
    c.stageCompleted(3, 0);
    Registered measured = c.register(demand(6, 6, "b2", "a2"));
    assertEquals(10_000_000, measured.baseSpeed(), "the measured base speed");
    assertEquals(2, measured.receiverPorts(), "δ set: kept, within k = 4");
  }

  @Test
  void bothRatesSetKeepTheirKWhateverIsMeasured() {
    StepCoordinator c =
        coordinator(
            "auto",
            null,
            Settings.NIC_RATE.key(),
            "5000000",
            Settings.BACKBONE_RATE.key(),
            "15000000");
    assertEquals(3, plan(c, 5).platform().k());
    c.stageCompleted(5, 0);
    measureParallel(c.measuring().meter(), 5);
    c.stageCompleted(3, 0);
    PlanEvent p = plan(c, 4);
    assertEquals(3, p.platform().k(), "15 / 5 MB/s as configured, not the measured 40 / 10");
    assertEquals(5_000_000, p.bytesPerSecond());
    assertTrue(p.platform().beta() >= 0.2, "beta is still measured: " + p.platform().beta());
  }

  @Test
  void aConfiguredKIsNeverReplaced() {
    StepCoordinator c =
        coordinator(
            "50ms", "3", Settings.NIC_RATE.key(), "auto", Settings.BACKBONE_RATE.key(), "auto");
    measureParallel(c.measuring().meter(), 5);
    c.stageCompleted(3, 0);
    PlanEvent p = plan(c, 4);
    assertEquals(3, p.platform().k());
  }

  @Test
  void onlyAChangeBeyondTenPerCentOfTheValueInUseSwitchesIt() {
    assertTrue(!LiveParameters.movedBeyond(0.050, 0.054), "β 50 -> 54 ms stays");
    assertTrue(LiveParameters.movedBeyond(0.050, 0.056), "β 50 -> 56 ms switches");
    assertTrue(LiveParameters.movedBeyond(0.050, 0.004), "β 50 -> 4 ms switches");
    assertTrue(!LiveParameters.movedBeyond(12_500_000, 12_100_000), "b -3.2 % stays");
    assertTrue(LiveParameters.movedBeyond(125_000_000, 12_160_000), "b 1 Gbit -> 97 Mbit");
    assertTrue(LiveParameters.movedBeyond(0, 0.001), "from 0 any measured β switches");
    assertTrue(!LiveParameters.movedBeyond(0, 0), "0 stays 0");
  }
}
