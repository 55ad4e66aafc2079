package io.wanshuffle.spark.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.arbiter.LinkDemand;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.event.CoordinatorListener;
import io.wanshuffle.spark.coordinator.event.ManualTimer;
import io.wanshuffle.spark.coordinator.event.ShareChange;
import io.wanshuffle.spark.coordinator.plan.GreedyTestScheduler;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

/**
 * One application among several on a backbone (an arbiter's share, here a fake one the test sets):
 * the coordinator publishes its demand per shared link with its plans, holds at most its share of a
 * link's window, and takes a larger share as soon as it is given; two of its stages reading at once
 * share its one window.
 */
class SharedBackboneTest {
  private final ManualTimer timer = new ManualTimer();

  /** Two sites a and b, k = 2 flows per backbone side, δ = 1. */
  private StepCoordinator coordinator() {
    return coordinator(List.of());
  }

  /** The same, telling {@code listeners}. */
  private StepCoordinator coordinator(List<CoordinatorListener> listeners) {
    SparkConf c =
        new SparkConf(false)
            .set(Settings.ALGORITHM.key(), "greedy-test")
            .set(Settings.K.key(), "2")
            .set(Settings.DELTA.key(), "1")
            .set(Settings.BETA.key(), "0ms")
            .set(Settings.STEP_MIN_DEADLINE.key(), "1h")
            .set(Settings.GATHER_WINDOW.key(), "0ms")
            .set(Settings.PLANNING_BUDGET.key(), "0");
    return StepCoordinator.builder(WanShuffleConf.from(c, Set.of("greedy-test")))
        .scheduler(new GreedyTestScheduler())
        .listeners(listeners)
        .timer(timer)
        .clock(timer::now)
        .clusters(h -> h.substring(0, 1))
        .build();
  }

  private static RegisterDemand demand(int stage, long task, String dst, String src) {
    return new RegisterDemand(
        stage, 0, 7, task, "e" + task, dst, new String[] {src}, new long[] {1_000_000});
  }

  private static List<CompletableFuture<GrantReply>> registerAndPoll(
      StepCoordinator c, RegisterDemand... ds) {
    List<CompletableFuture<GrantReply>> polls = new ArrayList<>();
    for (RegisterDemand d : ds) {
      polls.add(c.awaitGrant(AwaitGrant.poll(c.register(d).demandId())));
    }
    return polls;
  }

  private static long granted(List<CompletableFuture<GrantReply>> polls) {
    return polls.stream()
        .filter(f -> f.isDone() && f.join().status() == GrantReply.Status.GRANT)
        .count();
  }

  @Test
  void anApplicationHoldsAtMostItsShareAndTakesMoreWhenGiven() {
    StepCoordinator c = coordinator();
    FakeShare share = new FakeShare();
    share.shares.put("backbone.out[/a]", 1);
    c.shareBackbone(share);
    List<CompletableFuture<GrantReply>> polls =
        registerAndPoll(
            c, demand(3, 1, "b1", "a1"), demand(3, 2, "b2", "a2"), demand(3, 3, "b3", "a3"));
    timer.advance(10);
    assertEquals(1, c.openFlowCount(), "one flow: the share of backbone.out[/a]");
    assertEquals(1, granted(polls));
    Map<String, LinkDemand> last = share.published.get(share.published.size() - 1);
    assertEquals(
        new LinkDemand(3_000_000, 2, 0, 2, 1),
        last.get("backbone.out[/a]"),
        "republished after the grant, its flow open: " + last);
    share.shares.put("backbone.out[/a]", 2);
    share.onChange.run(); // another application's demand went away
    assertEquals(2, c.openFlowCount(), "the whole window of 2 once it is this application's");
    assertEquals(2, granted(polls));
    c.stop();
  }

  /**
   * A granted flow's links stay in the demand this application publishes until the flow is handed
   * on, though no byte is left to plan on them: another application is not given a link this one's
   * flow still holds (shares do not preempt open flows).
   */
  @Test
  void anOpenFlowKeepsItsLinksClaimed() {
    StepCoordinator c = coordinator();
    FakeShare share = new FakeShare();
    c.shareBackbone(share);
    List<CompletableFuture<GrantReply>> polls =
        registerAndPoll(c, demand(3, 1, "b1", "a1"), demand(3, 2, "b2", "a1"));
    timer.advance(10);
    assertEquals(1, c.openFlowCount(), "a1 sends one flow at a time (δ = 1)");
    String dst = granted(polls.subList(0, 1)) == 1 ? "b1" : "b2";
    polls.addAll(registerAndPoll(c, demand(3, 3, "b3", "a2"))); // the next round
    timer.advance(10);
    Map<String, LinkDemand> last = share.lastPublished();
    LinkDemand held = last.get("nic.down[" + dst + "]");
    assertEquals(1, held.flowsWanted(), "the open flow's receiver NIC: " + last);
    assertEquals(0, held.bytesWanted(), "nothing left to plan there");
    assertEquals(1, last.get("nic.up[a1]").flowsWanted());
    assertEquals(2, last.get("backbone.out[/a]").flowsWanted(), "one open flow, two pairs left");
    c.stop();
  }

  /**
   * A grant publishes the claim again with the flow it opened, though no later plan follows (the
   * only pair's flow is on its way, nothing is left to start): another application learns that the
   * flow holds its links when it is granted, not at this application's next plan.
   */
  @Test
  void aGrantPublishesItsOpenFlowAtOnce() {
    StepCoordinator c = coordinator();
    FakeShare share = new FakeShare();
    c.shareBackbone(share);
    registerAndPoll(c, demand(3, 1, "b1", "a1"));
    timer.advance(10);
    assertEquals(1, c.openFlowCount());
    Map<String, LinkDemand> last = share.lastPublished();
    for (String link : List.of("nic.up[a1]", "backbone.out[/a]", "nic.down[b1]")) {
      assertEquals(1, last.get(link).flowsOpen(), "the granted flow holds " + link + ": " + last);
    }
    c.stop();
  }

  /**
   * The arbiter moves a share down after a round built its plan and before the plan is granted (its
   * callback runs at any time, here from a listener of the plan): the plan, made on the larger
   * share, is not granted; the next one, on the share in force, is.
   */
  @Test
  void aPlanMadeBeforeTheShareMovedDownIsNotGranted() {
    FakeShare share = new FakeShare();
    java.util.concurrent.atomic.AtomicReference<Runnable> onPlan =
        new java.util.concurrent.atomic.AtomicReference<>(() -> {});
    StepCoordinator c =
        coordinator(
            List.of(
                new CoordinatorListener() {
                  @Override
                  public void onPlanComputed(io.wanshuffle.spark.coordinator.event.PlanEvent e) {
                    onPlan.getAndSet(() -> {}).run();
                  }
                }));
    share.shares.put("backbone.out[/a]", 0);
    c.shareBackbone(share);
    List<CompletableFuture<GrantReply>> polls =
        registerAndPoll(
            c, demand(3, 1, "b1", "a1"), demand(3, 2, "b2", "a2"), demand(3, 3, "b3", "a3"));
    timer.advance(10);
    assertEquals(0, c.openFlowCount(), "another application holds backbone.out[/a]");
    share.shares.put("backbone.out[/a]", 2); // the other one is done: the next round plans on 2
    onPlan.set(
        () -> {
          share.shares.put("backbone.out[/a]", 1); // a third application came meanwhile
          share.onChange.run();
        });
    share.onChange.run();
    timer.advance(10);
    assertEquals(1, c.openFlowCount(), "the share of backbone.out[/a] moved to 1 before the grant");
    assertEquals(1, granted(polls));
    c.stop();
  }

  @Test
  void aShareThatMovesIsToldWithTheLinkItsWindowAndTheOtherApplications() {
    List<ShareChange> told = new CopyOnWriteArrayList<>();
    StepCoordinator c =
        coordinator(
            List.of(
                new CoordinatorListener() {
                  @Override
                  public void onShareChanged(ShareChange change) {
                    told.add(change);
                  }
                }));
    FakeShare share = new FakeShare();
    c.shareBackbone(share);
    List<CompletableFuture<GrantReply>> polls =
        registerAndPoll(
            c, demand(3, 1, "b1", "a1"), demand(3, 2, "b2", "a2"), demand(3, 3, "b3", "a3"));
    timer.advance(10);
    assertEquals(List.of(), told, "every share the whole window: no change");
    // two other applications want backbone.out[/a]: this one keeps 1 of its 2 flows
    share.shares.put("backbone.out[/a]", 1);
    share.others.put("backbone.out[/a]", 2);
    share.onChange.run();
    assertEquals(List.of(new ShareChange("backbone.out[/a]", 2, 2, 2, 1, 2, timer.now())), told);
    timer.advance(500);
    // they leave the link: the whole window again
    share.shares.remove("backbone.out[/a]");
    share.others.remove("backbone.out[/a]");
    share.onChange.run();
    assertEquals(new ShareChange("backbone.out[/a]", 2, 2, 1, 2, 0, timer.now()), told.get(1));
    share.onChange.run();
    assertEquals(2, told.size(), "a share that did not move is not told again");
    assertEquals(2, granted(polls));
    c.stop();
  }

  /**
   * Once its last demand is fetched the application publishes that it wants nothing, so that the
   * others take its shares at once rather than at its next plan, which may be an application's
   * lifetime away.
   */
  @Test
  void anApplicationWhoseDemandIsFetchedPublishesNone() {
    StepCoordinator c = coordinator();
    FakeShare share = new FakeShare();
    c.shareBackbone(share);
    RegisterDemand d = demand(3, 1, "b1", "a1");
    long id = c.register(d).demandId();
    CompletableFuture<GrantReply> poll = c.awaitGrant(AwaitGrant.poll(id));
    timer.advance(10);
    assertTrue(poll.isDone() && poll.join().status() == GrantReply.Status.GRANT);
    assertTrue(
        share.lastPublished().containsKey("backbone.out[/a]"),
        "its demand is published: " + share.lastPublished());
    long[] left = d.bytes().clone();
    CompletableFuture<GrantReply> next =
        c.awaitGrant(FlowSimulation.reportOf(id, d, poll.join(), left));
    timer.advance(10);
    assertEquals(GrantReply.Status.FINISHED, next.join().status());
    assertEquals(Map.of(), share.lastPublished(), "nothing left: no link wanted");
    c.stop();
  }

  @Test
  void twoStagesReadingAtOnceShareTheApplicationsWindow() {
    StepCoordinator c = coordinator();
    List<CompletableFuture<GrantReply>> polls = new ArrayList<>();
    polls.addAll(registerAndPoll(c, demand(3, 1, "b1", "a1"), demand(3, 2, "b2", "a2")));
    polls.addAll(registerAndPoll(c, demand(4, 3, "b3", "a3"), demand(4, 4, "b4", "a4")));
    timer.advance(10);
    assertTrue(c.openFlowCount() <= 2, "two stages, one window of 2: " + c.openFlowCount());
    assertEquals(2, granted(polls));
    c.stop();
  }
}
