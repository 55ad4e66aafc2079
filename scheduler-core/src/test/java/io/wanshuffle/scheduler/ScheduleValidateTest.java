package io.wanshuffle.scheduler;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduleValidateTest {
  // DGGP paper's running example (sec. 2.3-2.5), seconds at base speed 100 Mbit/s.
  private final TrafficMatrix dggp = TrafficMatrix.of(new double[][] {{7, 3}, {0, 1}});
  private final Platform dggpPlatform = Platform.of(2, 1.0, new int[] {3, 2}, new int[] {1, 3});

  @Test
  void paperOptimalDggpScheduleIsValidAndCostsNine() {
    Schedule s =
        new Schedule(
            List.of(
                Step.of(List.of(new Transfer(0, 0, 3), new Transfer(0, 1, 3))),
                Step.of(List.of(new Transfer(0, 0, 4), new Transfer(1, 1, 1)))));
    assertDoesNotThrow(() -> s.validate(dggp, dggpPlatform));
    assertEquals(9.0, s.cost(1.0), 1e-12);
    assertEquals(9.0, LowerBound.of(dggp, dggpPlatform).eta(), 1e-12);
  }

  /**
   * A pair far below the absolute coverage tolerance must still be in some step (auto once dropped
   * one).
   */
  @Test
  void rejectsAPairOfATinyAmountThatIsInNoStep() {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{5, 1e-12}});
    Schedule s = new Schedule(List.of(Step.of(List.of(new Transfer(0, 0, 5)))));
    InvalidScheduleException e =
        assertThrows(
            InvalidScheduleException.class, () -> s.validate(m, Platform.onePort(2, 1, 1, 2)));
    assertTrue(
        e.getMessage().contains("0->1") && e.getMessage().contains("in no step"), e.getMessage());
  }

  @Test
  void rejectsMoreThanKTransfers() {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{1, 0}, {0, 1}});
    Schedule s =
        new Schedule(List.of(Step.of(List.of(new Transfer(0, 0, 1), new Transfer(1, 1, 1)))));
    InvalidScheduleException e =
        assertThrows(
            InvalidScheduleException.class, () -> s.validate(m, Platform.onePort(1, 0, 2, 2)));
    assertTrue(e.getMessage().contains("k = 1"), e.getMessage());
  }

  @Test
  void rejectsOnePortViolation() {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{1, 1}});
    Schedule s =
        new Schedule(List.of(Step.of(List.of(new Transfer(0, 0, 1), new Transfer(0, 1, 1)))));
    InvalidScheduleException e =
        assertThrows(
            InvalidScheduleException.class, () -> s.validate(m, Platform.onePort(2, 0, 1, 2)));
    assertTrue(e.getMessage().contains("sender 0"), e.getMessage());
    // the same step is fine when sender 0 has two ports
    assertDoesNotThrow(() -> s.validate(m, Platform.of(2, 0, new int[] {2}, new int[] {1, 1})));
  }

  @Test
  void deltaAboveKIsCappedByK() {
    Platform p = Platform.of(2, 0, new int[] {5}, new int[] {1, 1, 1});
    assertEquals(2, p.senderPorts(0));
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{1, 1, 1}});
    Schedule s =
        new Schedule(
            List.of(
                Step.of(
                    List.of(new Transfer(0, 0, 1), new Transfer(0, 1, 1), new Transfer(0, 2, 1)))));
    assertThrows(InvalidScheduleException.class, () -> s.validate(m, p));
  }

  @Test
  void rejectsUncoveredAmount() {
    Schedule s =
        new Schedule(
            List.of(
                Step.of(List.of(new Transfer(0, 0, 3), new Transfer(0, 1, 3))),
                Step.of(List.of(new Transfer(0, 0, 3.9), new Transfer(1, 1, 1)))));
    InvalidScheduleException e =
        assertThrows(InvalidScheduleException.class, () -> s.validate(dggp, dggpPlatform));
    assertTrue(e.getMessage().contains("0->0"), e.getMessage());
  }

  @Test
  void rejectsTransferWithoutDemandAndDuplicatePair() {
    Schedule ghost = new Schedule(List.of(Step.of(List.of(new Transfer(1, 0, 1)))));
    assertThrows(InvalidScheduleException.class, () -> ghost.validate(dggp, dggpPlatform));
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{2}});
    Schedule dup =
        new Schedule(List.of(Step.of(List.of(new Transfer(0, 0, 1), new Transfer(0, 0, 1)))));
    assertThrows(
        InvalidScheduleException.class,
        () -> dup.validate(m, Platform.of(2, 0, new int[] {2}, new int[] {2})));
  }

  @Test
  void stepRefusesTransferLongerThanDuration() {
    assertThrows(
        IllegalArgumentException.class, () -> new Step(1.0, List.of(new Transfer(0, 0, 2.0))));
  }

  @Test
  void costIsSumOfBetaPlusDuration() {
    Schedule s =
        new Schedule(
            List.of(
                new Step(2.5, List.of(new Transfer(0, 0, 1))),
                Step.of(List.of(new Transfer(0, 0, 4)))));
    assertEquals(2 * 0.5 + 2.5 + 4, s.cost(0.5), 1e-12);
    assertEquals(6.5, s.transmissionTime(), 1e-12);
  }
}
