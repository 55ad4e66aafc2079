package io.wanshuffle.spark.coordinator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.event.ManualTimer;
import io.wanshuffle.spark.coordinator.plan.GreedyTestScheduler;
import io.wanshuffle.spark.coordinator.protocol.AwaitGrant;
import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import io.wanshuffle.spark.coordinator.protocol.GrantReply.Status;
import io.wanshuffle.spark.coordinator.protocol.NoCrossClusterDemand;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.coordinator.protocol.WireCodec;
import java.util.List;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.apache.spark.rpc.RpcAddress;
import org.apache.spark.rpc.RpcCallContext;
import org.junit.jupiter.api.Test;

/** The RPC glue: when registrations and polls are answered, and with what. */
class CoordinatorEndpointTest {
  /** The coordinator behind the last {@link #endpoint}. */
  private StepCoordinator coordinator;

  private final ManualTimer timer = new ManualTimer();

  /** Records the one reply (or failure) of an ask. */
  private static final class Call implements RpcCallContext {
    Object reply;
    Throwable failure;

    @Override
    public void reply(Object response) {
      reply = response;
    }

    @Override
    public void sendFailure(Throwable e) {
      failure = e;
    }

    @Override
    public RpcAddress senderAddress() {
      return new RpcAddress("10.77.2.11", 40000);
    }

    boolean answered() {
      return reply != null || failure != null;
    }

    Registered registered() {
      return WireCodec.decodeRegistered((byte[]) reply);
    }
  }

  private CoordinatorEndpoint endpoint(String algorithm) {
    SparkConf c =
        new SparkConf(false)
            .set(Settings.ALGORITHM.key(), algorithm)
            .set(Settings.K.key(), "1")
            .set(Settings.BETA.key(), "0ms")
            .set(Settings.GATHER_WINDOW.key(), "100ms")
            .set(Settings.POLL_INTERVAL.key(), "10s")
            .set(Settings.PLANNING_BUDGET.key(), "0");
    WanShuffleConf conf = WanShuffleConf.from(c, Set.of("greedy-test"));
    coordinator =
        StepCoordinator.builder(conf)
            .scheduler(conf.gated() ? new GreedyTestScheduler() : null)
            .listeners(List.of())
            .timer(timer)
            .clock(timer::now)
            .build();
    return new CoordinatorEndpoint(null, coordinator, timer);
  }

  private static Call ask(CoordinatorEndpoint e, Object message) {
    Call call = new Call();
    assertTrue(e.receiveAndReply(call).isDefinedAt(message));
    e.receiveAndReply(call).apply(message);
    return call;
  }

  private static RegisterDemand demand(long task, String dst, String src, long bytes) {
    return new RegisterDemand(
        3, 0, 7, task, "exec-" + dst, dst, new String[] {src}, new long[] {bytes});
  }

  @Test
  void aGatedRegistrationIsAnsweredWithTheFirstGrant() {
    CoordinatorEndpoint e = endpoint("greedy-test");
    Call call = ask(e, demand(1, "b1", "a1", 500));
    assertFalse(call.answered(), "held until the first step is planned");
    timer.advance(100); // the gather window
    assertTrue(call.answered());
    Registered r = call.registered();
    assertTrue(r.gated());
    assertTrue(r.demandId() > 0);
    assertEquals(Status.GRANT, r.firstPoll().status());
    assertArrayEquals(new String[] {"a1"}, r.firstPoll().srcHosts());
    assertArrayEquals(new long[] {500}, r.firstPoll().budgets());
    assertTrue(r.heldMs() >= 0);
  }

  @Test
  void aRegistrationHeldPastThePollIntervalIsAnsweredNotYetAndTheGrantWaitsForTheNextPoll() {
    CoordinatorEndpoint e = endpoint("greedy-test");
    Call first = ask(e, demand(1, "b1", "a1", 500));
    timer.advance(100);
    assertEquals(Status.GRANT, first.registered().firstPoll().status());
    // k = 1: the second receiver's registration waits for the only flow
    Call second = ask(e, demand(2, "b2", "a2", 300));
    timer.advance(10_000);
    assertTrue(second.answered());
    Registered r2 = second.registered();
    assertEquals(Status.NOT_YET, r2.firstPoll().status());
    Call poll = ask(e, AwaitGrant.poll(r2.demandId()));
    assertFalse(poll.answered(), "a poll parks while the flow is busy");
    // b1 reports its whole step: the flow goes to b2's parked poll
    Registered r1 = first.registered();
    ask(
        e,
        new AwaitGrant(
            r1.demandId(),
            r1.firstPoll().stepId(),
            new String[] {"a1"},
            new long[] {500},
            new long[] {0},
            timer.now() - 5_000,
            timer.now()));
    assertTrue(poll.answered());
    GrantReply g = WireCodec.decodeGrantReply((byte[]) poll.reply);
    assertEquals(Status.GRANT, g.status());
    assertArrayEquals(new String[] {"a2"}, g.srcHosts());
  }

  @Test
  void aNoticeOfNoCrossClusterDemandEndsTheGatherWindow() {
    CoordinatorEndpoint e = endpoint("greedy-test");
    coordinator.taskLaunched(3, 0, 1);
    coordinator.taskLaunched(3, 0, 2);
    Call call = ask(e, demand(1, "b1", "a1", 500));
    assertFalse(call.answered(), "task 2 is expected to register");
    NoCrossClusterDemand notice = new NoCrossClusterDemand(3, 0, 2, "b2");
    assertTrue(e.receive().isDefinedAt(notice));
    e.receive().apply(notice);
    assertTrue(call.answered(), "planned without waiting for the window");
    assertEquals(Status.GRANT, call.registered().firstPoll().status());
  }

  @Test
  void anUngatedRegistrationIsAnsweredAtOnceWithoutAPoll() {
    CoordinatorEndpoint e = endpoint("none");
    Call call = ask(e, demand(1, "b1", "a1", 500));
    assertTrue(call.answered());
    Registered r = call.registered();
    assertFalse(r.gated());
    assertNull(r.firstPoll());
  }
}
