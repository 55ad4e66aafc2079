package io.wanshuffle.spark.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ReaderPhaseTest {
  @ParameterizedTest
  @EnumSource(ReaderPhase.class)
  void everyPhaseEndsWhenItsTaskEnds(ReaderPhase p) {
    assertTrue(p.canMoveTo(ReaderPhase.DONE));
  }

  @ParameterizedTest
  @EnumSource(ReaderPhase.class)
  void noPhaseReturnsToUnregistered(ReaderPhase p) {
    assertFalse(p.canMoveTo(ReaderPhase.UNREGISTERED));
  }

  @Test
  void ungatedIsFinal() {
    for (ReaderPhase p : ReaderPhase.values()) {
      assertEquals(p == ReaderPhase.DONE, ReaderPhase.UNGATED.canMoveTo(p), p.name());
    }
  }

  @Test
  void aStepIsFetchedOnlyOnAGrantAndEndsReportedCutOrUngated() {
    Set<ReaderPhase> into = EnumSet.noneOf(ReaderPhase.class);
    for (ReaderPhase p : ReaderPhase.values()) {
      if (p.canMoveTo(ReaderPhase.FETCHING)) {
        into.add(p);
      }
    }
    assertEquals(
        EnumSet.of(ReaderPhase.REGISTERING, ReaderPhase.WAITING, ReaderPhase.REPORTED), into);
    assertFalse(ReaderPhase.FETCHING.canMoveTo(ReaderPhase.WAITING), "a step is reported first");
    assertTrue(ReaderPhase.FETCHING.canMoveTo(ReaderPhase.REPORTED));
    assertTrue(ReaderPhase.FETCHING.canMoveTo(ReaderPhase.STANDING_ASIDE), "a cut paced step");
  }

  @Test
  void aReaderStandingAsideNeverFetchesBeforeItIsReadAgain() {
    assertFalse(ReaderPhase.STANDING_ASIDE.canMoveTo(ReaderPhase.FETCHING));
    assertFalse(ReaderPhase.STANDING_ASIDE.canMoveTo(ReaderPhase.REPORTED));
    assertTrue(ReaderPhase.STANDING_ASIDE.canMoveTo(ReaderPhase.WAITING));
  }

  @Test
  void anAnswerIsAwaitedExactlyWhileRegisteringPollingStandingAsideOrReported() {
    Set<ReaderPhase> awaiting = EnumSet.noneOf(ReaderPhase.class);
    for (ReaderPhase p : ReaderPhase.values()) {
      if (p.awaitsAnswer()) {
        awaiting.add(p);
      }
    }
    assertEquals(
        EnumSet.of(
            ReaderPhase.REGISTERING,
            ReaderPhase.WAITING,
            ReaderPhase.STANDING_ASIDE,
            ReaderPhase.REPORTED),
        awaiting);
  }
}
