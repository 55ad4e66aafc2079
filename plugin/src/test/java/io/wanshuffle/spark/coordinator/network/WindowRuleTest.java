package io.wanshuffle.spark.coordinator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.coordinator.network.WindowRule.Decision;
import io.wanshuffle.spark.coordinator.network.WindowRule.Observation;
import io.wanshuffle.spark.coordinator.network.WindowRule.State;
import org.junit.jupiter.api.Test;

/**
 * The window rule on the demo's backbone side: 200 Mbit/s, a base speed of one 100 Mbit/s NIC, so a
 * capacity of 2 flows; flows held by their NICs run at 88 Mbit/s.
 */
class WindowRuleTest {
  private static final double MBIT = 1e6 / 8;
  private static final long B = (long) (100 * MBIT);
  private static final double RATE = 200 * MBIT;
  private static final int C = 2;
  private static final double NIC_SHARE = 100 * MBIT;

  private static Observation flows(double mbitEach, double held) {
    return new Observation(4, mbitEach * MBIT, held, NIC_SHARE, 3, 3);
  }

  @Test
  void flowsBelowTheirShareRaiseTheWindowToTheFlowsThatFillTheLink() {
    Decision d = WindowRule.decide(flows(88, 2.0), State.initial(C, RATE), C, RATE, B, 10_000);
    assertEquals(3, d.state().window(), d.reason());
    assertTrue(d.reason().startsWith("under-filled"), d.reason());
    assertEquals(2, d.state().raisedFrom(), "the rise is judged at the next decision");
  }

  @Test
  void aLinkThatCarriesItsRateOrHasNoDemandHolds() {
    State s = State.initial(C, RATE);
    assertEquals(2, WindowRule.decide(flows(96, 2.0), s, C, RATE, B, 0).state().window(), "92 %");
    assertEquals(
        2,
        WindowRule.decide(flows(88, 1.2), s, C, RATE, B, 0).state().window(),
        "one flow held of two: no demand for the second, another flow would not run");
    assertEquals(
        2,
        WindowRule.decide(new Observation(2, 88 * MBIT, 2, NIC_SHARE, 2, 2), s, C, RATE, B, 0)
            .state()
            .window(),
        "too few flows");
  }

  @Test
  void aRiseThatFillsTheLinkStaysAndOneThatOnlyQueuesIsTakenBack() {
    State raised = WindowRule.decide(flows(88, 2.0), State.initial(C, RATE), C, RATE, B, 0).state();
    Decision full = WindowRule.decide(flows(66, 3.0), raised, C, RATE, B, 2_000);
    assertEquals(3, full.state().window(), "198 Mbit/s against 176: the third flow filled it");
    assertEquals(0, full.state().raisedFrom());
    Decision queued = WindowRule.decide(flows(59, 3.0), raised, C, RATE, B, 2_000);
    assertEquals(2, queued.state().window(), "177 Mbit/s against 176: a full link");
    assertTrue(queued.reason().startsWith("full"), queued.reason());
    assertEquals(
        2,
        WindowRule.decide(flows(88, 2.0), queued.state(), C, RATE, B, 2_000 + 29_000)
            .state()
            .window(),
        "held back for the hold time");
    assertEquals(
        3,
        WindowRule.decide(flows(88, 2.0), queued.state(), C, RATE, B, 2_000 + 30_000)
            .state()
            .window(),
        "then tried again");
  }

  @Test
  void theWindowNeverPassesItsBound() {
    assertEquals(2, WindowRule.bound(1));
    assertEquals(3, WindowRule.bound(2));
    assertEquals(6, WindowRule.bound(4));
    assertEquals(15, WindowRule.bound(10));
    // hosts of 40 Mbit/s NICs: their flows at 36 Mbit/s would take 6 flows to fill the link
    Observation slowHosts = new Observation(4, 36 * MBIT, 2.0, 40 * MBIT, 3, 3);
    Decision d = WindowRule.decide(slowHosts, State.initial(C, RATE), C, RATE, B, 0);
    assertEquals(3, d.state().window(), "the bound is 3: " + d.reason());
    Observation atBound = new Observation(4, 36 * MBIT, 3.0, 40 * MBIT, 3, 3);
    assertEquals(
        3, WindowRule.decide(atBound, new State(3, RATE, 0, 0, 0), C, RATE, B, 0).state().window());
  }

  @Test
  void aLinkWhoseRateDropsFourTimesHasItsMeasuredRateInForceAtItsCapacityAndRecovers() {
    State full = new State(3, RATE, 0, 0, 0);
    // the backbone at 50 Mbit/s: three flows of 16.7, under 60 % of every share on their routes
    Decision slowed = WindowRule.decide(flows(16.7, 3.0), full, C, RATE, B, 60_000);
    assertEquals(C, slowed.state().window(), "back to its capacity, not below: " + slowed.reason());
    assertEquals(50 * MBIT, slowed.state().rate(), 1 * MBIT, "its measured throughput in force");
    assertTrue(slowed.reason().startsWith("slowed"), slowed.reason());
    // still slow: two flows of 25 Mbit/s are at their share of 50: holds, no rise
    Decision still = WindowRule.decide(flows(25, 2.0), slowed.state(), C, RATE, B, 62_000);
    assertEquals(C, still.state().window());
    assertEquals("", still.reason());
    // the link back at 200: one flow at its NIC's 88 Mbit/s
    Decision back = WindowRule.decide(flows(88, 1.0), slowed.state(), C, RATE, B, 64_000);
    assertTrue(back.reason().startsWith("recovered"), back.reason());
    assertEquals(RATE, back.state().rate(), 1e-6);
  }

  /**
   * Flows slowed together by their hosts (measured on the demo's shape at RTT 0 on a 2-core
   * machine: two backbone flows at 54 Mbit/s each on a link of 200, every NIC and rack link at 100)
   * keep the link's capacity: one flow fewer would halve what the link carries.
   */
  @Test
  void flowsSlowedByTheirHostsNeverTakeTheWindowBelowCapacity() {
    Observation hostBound = new Observation(6, 53.8 * MBIT, 1.9, NIC_SHARE, 3, 3);
    Decision d = WindowRule.decide(hostBound, State.initial(C, RATE), C, RATE, B, 0);
    assertTrue(d.reason().startsWith("slowed"), d.reason());
    assertEquals(C, d.state().window(), d.reason());
  }

  @Test
  void oneSlowHostIsNotASlowedLink() {
    Observation oneSender = new Observation(4, 16.7 * MBIT, 3, NIC_SHARE, 1, 3);
    Decision d = WindowRule.decide(oneSender, new State(3, RATE, 0, 0, 0), C, RATE, B, 0);
    assertFalse(d.reason().startsWith("slowed"), d.reason());
    assertEquals(RATE, d.state().rate(), 1e-6);
  }
}
