package io.wanshuffle.spark.coordinator.demand;

import static io.wanshuffle.spark.coordinator.demand.TestDemands.demand;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A demand's life cycle ({@link Demand}, {@link DemandPhase}): the phases a registration, its
 * polls, grants, reports and release move it through, what each phase allows, and the transitions
 * that are refused (checked with assertions, which the tests run with).
 */
class DemandLifecycleTest {

  private static Demand.Grant grantOf(long step, long budget) {
    return new Demand.Grant(step, new int[] {0}, new long[] {budget});
  }

  @Test
  void aDemandGoesFromItsPollToItsGrantToItsReportToTheEnd() {
    Demand d = demand(1, "b1", "a1", 300);
    assertEquals(DemandPhase.WAITING, d.phase());
    assertTrue(d.plannable() && d.grantable());
    CompletableFuture<GrantReply> poll = new CompletableFuture<>();
    assertNull(d.park(poll, 0));
    assertTrue(d.parked());
    CompletableFuture<GrantReply> w = d.takeWaiter();
    assertSame(poll, w);
    d.grant(grantOf(1, 200), true);
    assertEquals(DemandPhase.FETCHING, d.phase());
    assertTrue(d.plannable(), "its future bytes are still planned");
    assertFalse(d.grantable(), "it holds a grant");
    assertArrayEquals(new long[] {100}, d.futureBytes(), "300 left, 200 granted");
    d.reported(0, 200, 100);
    Demand.Grant held = d.grant();
    assertSame(held, d.endGrant());
    assertEquals(DemandPhase.WAITING, d.phase());
    assertArrayEquals(new long[] {100}, d.remaining());
    assertArrayEquals(new long[] {200}, d.realised());
    d.grant(grantOf(2, 100), false);
    assertEquals(DemandPhase.GRANTED, d.phase());
    assertTrue(d.grantUncollected());
    GrantReply r = d.collect();
    assertEquals(2, r.stepId());
    assertEquals(DemandPhase.FETCHING, d.phase());
    d.uncollected(); // the poll it was meant for expired first
    assertEquals(DemandPhase.GRANTED, d.phase());
    d.reported(0, 100, 0);
    d.endGrant();
    assertEquals(0, d.remainingTotal());
    d.finish();
    assertEquals(DemandPhase.FINISHED, d.phase());
    assertFalse(d.plannable());
  }

  @Test
  void anIdlePollStandsTheDemandAsideUntilAPollWithoutTheMark() {
    Demand d = demand(1, "b1", "a1", 300);
    d.markIdle(true);
    assertEquals(DemandPhase.STANDING_ASIDE, d.phase());
    assertFalse(d.plannable(), "not planned while its task reads another shuffle");
    d.park(new CompletableFuture<>(), 0);
    assertTrue(d.parked(), "an idle poll parks too");
    d.markIdle(false);
    assertEquals(DemandPhase.WAITING, d.phase());
    assertTrue(d.plannable());
  }

  @Test
  void aReleasedDemandKeepsItsGrantUntilTheGrantEnds() {
    Demand d = demand(1, "b1", "a1", 300);
    d.grant(grantOf(1, 300), true);
    assertTrue(d.release());
    assertFalse(d.release(), "released once");
    assertTrue(d.released());
    assertFalse(d.plannable());
    Demand.Grant g = d.endGrant();
    assertEquals(1, g.stepId());
    assertNull(d.grant());
    assertEquals(DemandPhase.RELEASED, d.phase(), "a released demand stays released");
  }

  @Test
  void anUngatedGrantHandsEveryByteLeftAtOnce() {
    Demand d = demand(1, "b1", "a1", 300, "a2", 50);
    GrantReply r = d.grantAll();
    assertEquals(0, r.stepId());
    assertArrayEquals(new String[] {"a1", "a2"}, r.srcHosts());
    assertArrayEquals(new long[] {300, 50}, r.budgets());
    assertEquals(DemandPhase.FETCHING, d.phase());
  }

  @Test
  void transitionsOutOfTheLifeCycleAreRefused() {
    Demand fetching = demand(1, "b1", "a1", 300);
    fetching.grant(grantOf(1, 300), true);
    assertThrows(AssertionError.class, () -> fetching.grant(grantOf(2, 300), false));
    assertThrows(AssertionError.class, () -> fetching.park(new CompletableFuture<>(), 0));
    assertThrows(AssertionError.class, fetching::finish, "finished while fetching");
    Demand finished = demand(2, "b1", "a1", 10);
    TestDemands.setRemaining(finished, 0, 0);
    finished.finish();
    assertThrows(AssertionError.class, () -> finished.grant(grantOf(1, 1), false));
    assertThrows(AssertionError.class, finished::release);
    Demand waiting = demand(3, "b1", "a1", 300);
    assertThrows(AssertionError.class, () -> waiting.reported(0, 100, 200), "no grant held");
  }

  @Test
  void everyLivePhaseCanBeReleasedAndNothingLeavesTheEnds() {
    for (DemandPhase p : DemandPhase.values()) {
      boolean end = p == DemandPhase.FINISHED || p == DemandPhase.RELEASED;
      if (!end) {
        assertTrue(p.canMoveTo(DemandPhase.RELEASED), p + " can be released");
      }
      assertFalse(DemandPhase.FINISHED.canMoveTo(p), "FINISHED -> " + p);
      assertEquals(
          p == DemandPhase.RELEASED, DemandPhase.RELEASED.canMoveTo(p), "RELEASED -> " + p);
      assertEquals(p == DemandPhase.GRANTED || p == DemandPhase.FETCHING, p.holdsGrant(), p.name());
    }
  }
}
