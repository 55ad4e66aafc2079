package io.wanshuffle.spark.coordinator.demand;

import static io.wanshuffle.spark.coordinator.demand.TestDemands.register;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The registered demands: ids, registration order, and the lookups by task, executor, stage. */
class DemandBookTest {
  private static final StageRef S1 = new StageRef(1, 0);
  private static final StageRef S1_RETRY = new StageRef(1, 1);

  private static List<Long> ids(Iterable<Demand> ds) {
    List<Long> out = new java.util.ArrayList<>();
    ds.forEach(d -> out.add(d.id()));
    return out;
  }

  @Test
  void aDemandGetsTheNextIdAndTheRegistrationsFields() {
    DemandBook book = new DemandBook();
    RegisterDemand m =
        new RegisterDemand(
            4, 1, 9, 42, "exec-7", "b1", new String[] {"a1", "a2"}, new long[] {300, 100});
    Demand d = book.add(m);
    assertEquals(1, d.id(), "ids start at 1");
    assertEquals(new StageRef(4, 1), d.stage());
    assertEquals(9, d.shuffleId());
    assertEquals(42, d.taskAttemptId());
    assertEquals("exec-7", d.executorId());
    assertEquals("b1", d.dst());
    assertArrayEquals(new String[] {"a1", "a2"}, d.src());
    assertArrayEquals(new long[] {300, 100}, d.registered());
    assertArrayEquals(new long[] {300, 100}, d.remaining());
    assertArrayEquals(new long[] {0, 0}, d.realised());
    assertNull(d.grant());
    m.bytes()[0] = 1; // the registration's arrays are copied
    assertArrayEquals(new long[] {300, 100}, d.remaining());
    assertEquals(2, book.add(register(43, "b2", "a1", 5)).id());
    assertEquals(3, book.add(register(44, "b3", "a1", 5)).id());
    assertEquals(d, book.get(1));
    assertNull(book.get(99));
  }

  @Test
  void everyDemandAndATasksDemandsComeInRegistrationOrder() {
    DemandBook book = new DemandBook();
    Demand d1 = book.add(register(10, "b1", "a1", 1));
    Demand d2 = book.add(register(11, "b2", "a1", 1));
    Demand d3 = book.add(register(10, "b1", "a2", 1)); // task 10's second read
    Demand d4 = book.add(register(12, "b3", "a1", 1));
    assertEquals(List.of(d1.id(), d2.id(), d3.id(), d4.id()), ids(book.all()));
    assertEquals(4, book.size());
    assertEquals(2, book.countOfTask(10));
    assertEquals(List.of(d1.id(), d3.id()), ids(book.ofTask(10)));
    assertEquals(0, book.countOfTask(99));
    assertTrue(book.ofTask(99).isEmpty());
    assertThrows(
        UnsupportedOperationException.class, () -> book.all().clear(), "all() is read-only");
  }

  @Test
  void demandsAreFoundByExecutorAndByStageAttempt() {
    DemandBook book = new DemandBook();
    Demand d1 = book.add(register(S1, 1, "b1", "a1", 1));
    Demand d2 = book.add(register(S1_RETRY, 2, "b1", "a1", 1));
    Demand d3 = book.add(register(S1, 3, "b2", "a1", 1));
    assertEquals(List.of(d1.id(), d3.id()), ids(book.ofStage(S1)));
    assertEquals(List.of(d2.id()), ids(book.ofStage(S1_RETRY)), "another attempt, another stage");
    assertEquals(Set.of(S1, S1_RETRY), book.stages());
    assertEquals(List.of(d3.id()), ids(book.ofExecutor("e3")));
    assertTrue(book.ofExecutor("e9").isEmpty());
  }

  @Test
  void aForgottenDemandLeavesEveryLookupAndForgettingTwiceIsANoOp() {
    DemandBook book = new DemandBook();
    Demand d1 = book.add(register(S1, 10, "b1", "a1", 1));
    Demand d2 = book.add(register(S1, 10, "b1", "a2", 1));
    Demand d3 = book.add(register(S1_RETRY, 11, "b2", "a1", 1));
    book.forget(d1);
    assertNull(book.get(d1.id()));
    assertEquals(1, book.countOfTask(10));
    assertEquals(List.of(d2.id()), ids(book.ofTask(10)));
    assertEquals(List.of(d2.id(), d3.id()), ids(book.all()));
    book.forget(d1);
    assertEquals(2, book.size());
    book.forget(d2);
    assertEquals(0, book.countOfTask(10));
    assertTrue(book.ofTask(10).isEmpty());
    assertTrue(book.ofExecutor("e10").isEmpty());
    assertEquals(Set.of(S1_RETRY), book.stages(), "no demand of stage 1.0 left");
    assertEquals(d3.id() + 1, book.add(register(12, "b3", "a1", 1)).id(), "ids are never reused");
  }
}
