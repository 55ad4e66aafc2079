package io.wanshuffle.spark.reader;

import static io.wanshuffle.spark.reader.ReaderFixtures.blocks;
import static io.wanshuffle.spark.reader.ReaderFixtures.grant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The room check and the held steps shared between the task thread and the step-opener. */
class OpenerGateTest {
  private final OpenerGate gate = new OpenerGate();

  /** A step that took {@code bytes} (one chunk). */
  private StepRun step(long id, long bytes) {
    StepRun.Env env =
        new StepRun.Env(
            new ReaderFixtures.RecordingOpener(),
            blocks("b1", "a1", 1),
            new String[] {"a1"},
            null,
            gate,
            null,
            null,
            null,
            false,
            0);
    StepRun s = new StepRun(env, id, 0, (r, call, reply, idle) -> {});
    s.addChunk(java.util.List.of(), bytes, new long[] {bytes});
    return s;
  }

  @Test
  void aGrantAlwaysFitsWhenOnlyTheReportedStepIsUnread() {
    StepRun reported = step(1, 900);
    assertTrue(gate.roomFor(reported, grant(2, "a2", 900), 1000), "nothing unread");
    gate.hold(reported);
    assertTrue(gate.roomFor(reported, grant(2, "a2", 900), 1000), "the task reads it meanwhile");
    assertFalse(
        gate.roomFor(step(9, 1), grant(2, "a2", 900), 1000),
        "another step unread: the grant must fit beside it");
  }

  @Test
  void otherwiseTheUnreadStepsAndTheGrantMustFitWithinTheInFlightLimit() {
    StepRun first = step(1, 100);
    StepRun reported = step(2, 90);
    gate.hold(first);
    gate.hold(reported);
    assertEquals(2, gate.heldSteps());
    assertEquals(190, gate.heldBytes());
    assertTrue(gate.roomFor(reported, grant(3, "a3", 60), 250));
    assertFalse(gate.roomFor(reported, grant(3, "a3", 80), 250));
    assertTrue(
        gate.roomFor(reported, grant(3, "a3", 80), 1000), "a larger limit leaves room for it");

    gate.unhold(first); // the task read step 1
    assertEquals(90, gate.heldBytes());
    assertTrue(gate.roomFor(reported, grant(3, "a3", 80), 250));
  }

  @Test
  void holdingAgainReplacesTheBytesAndUnholdingTwiceIsHarmless() {
    StepRun s = step(1, 100);
    gate.hold(s);
    gate.hold(s);
    assertEquals(1, gate.heldSteps());
    assertEquals(100, gate.heldBytes());
    gate.unhold(s);
    gate.unhold(s);
    assertEquals(0, gate.heldSteps());
    assertEquals(0, gate.heldBytes());
  }

  @Test
  void closingIsFinalAndTheLogSaysWhatIsHeld() {
    gate.hold(step(1, 100));
    gate.openedAhead();
    assertEquals("1 step(s) of 100 B not read yet, 1 of them not taken up", gate.describeHeld());
    gate.takenUp();
    assertEquals("1 step(s) of 100 B not read yet", gate.describeHeld());
    assertFalse(gate.isClosed());
    gate.close();
    assertTrue(gate.isClosed());
  }
}
