package io.wanshuffle.spark.coordinator.demand;

import static io.wanshuffle.spark.coordinator.demand.TestDemands.register;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.event.StageSummary;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.coordinator.protocol.UngatedReport;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Per-stage accounts: registered bytes per host pair from demands, realised ones from ungated reads
 * (registered too only when never registered), steps counted, and the final matrices.
 */
class StageLedgerTest {
  private static final StageRef S = new StageRef(5, 0);
  private static final StageRef OTHER = new StageRef(6, 0);

  private final StageLedger ledger = new StageLedger();
  private final DemandBook book = new DemandBook();

  private Demand add(StageRef stage, long task, String dst, Object... srcBytes) {
    return book.add(register(stage, task, dst, srcBytes));
  }

  /** Matrix entry src -> dst of a summary. */
  private static long at(long[][] m, StageSummary s, String src, String dst) {
    return m[s.hosts().indexOf(src)][s.hosts().indexOf(dst)];
  }

  @Test
  void demandsCountAsRegisteredFromTheStagesFirstDemand() {
    assertNull(ledger.get(S), "no demand yet");
    ledger.registered(add(S, 1, "b1", "a1", 300, "a2", 100), 500);
    ledger.registered(add(S, 2, "b1", "a1", 50), 900);
    assertNotNull(ledger.get(S));
    assertNull(ledger.get(OTHER));
    StageSummary s = ledger.complete(S, 2000);
    assertEquals(S, s.stage());
    assertEquals(List.of("a1", "a2", "b1"), s.hosts());
    assertEquals(350, at(s.registeredBytes(), s, "a1", "b1"));
    assertEquals(100, at(s.registeredBytes(), s, "a2", "b1"));
    assertEquals(0, at(s.realisedBytes(), s, "a1", "b1"));
    assertArrayEquals(new int[] {7}, s.shuffleIds());
    assertEquals(500, s.firstDemandMs(), "the first demand opened the account");
    assertEquals(2000, s.endMs());
    assertEquals(0, s.steps());
  }

  @Test
  void anUngatedReadCountsAsRegisteredOnlyWhenItNeverRegistered() {
    RegisterDemand never = register(S, 1, "b1", "a1", 400);
    ledger.ungated(new UngatedReport(0, never, 100, 200), true, 300);
    Demand d = add(S, 2, "b2", "a1", 250);
    ledger.registered(d, 400);
    ledger.ungated(
        new UngatedReport(d.id(), register(S, 2, "b2", "a1", 250), 100, 200), false, 500);
    StageSummary s = ledger.complete(S, 1000);
    assertEquals(400, at(s.registeredBytes(), s, "a1", "b1"), "counted once, by the report");
    assertEquals(400, at(s.realisedBytes(), s, "a1", "b1"));
    assertEquals(250, at(s.registeredBytes(), s, "a1", "b2"), "counted once, by the demand");
    assertEquals(250, at(s.realisedBytes(), s, "a1", "b2"));
    assertEquals(300, s.firstDemandMs(), "an ungated report opens the account too");
  }

  @Test
  void aStepCountsForEachStageThatReceivedAPartOfItAndHasAnAccount() {
    ledger.registered(add(S, 1, "b1", "a1", 10), 0);
    ledger.registered(add(OTHER, 2, "b1", "a1", 10), 0);
    ledger.stepGranted(Set.of(S, OTHER));
    ledger.stepGranted(Set.of(S, new StageRef(99, 0)));
    assertNull(ledger.get(new StageRef(99, 0)), "a step opens no account");
    assertEquals(2, ledger.complete(S, 10).steps());
    assertEquals(1, ledger.complete(OTHER, 10).steps());
  }

  @Test
  void aCompletedStagesAccountIsClosed() {
    ledger.registered(add(S, 1, "b1", "a1", 10), 0);
    assertNotNull(ledger.complete(S, 10));
    assertNull(ledger.get(S));
    assertNull(ledger.complete(S, 20), "closed once");
    assertNull(ledger.complete(OTHER, 20), "no cross-cluster traffic");
  }
}
