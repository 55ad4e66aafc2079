package io.wanshuffle.spark.reader;

import io.wanshuffle.spark.coordinator.protocol.GrantReply;
import java.util.IdentityHashMap;
import java.util.Map;
import javax.annotation.concurrent.GuardedBy;

/**
 * What a gated reader's task thread and its step-opener threads share: whether a grant that answers
 * a step report may still be opened off the task thread, and the steps whose blocks were taken but
 * that the task has not read to the end (the room check).
 *
 * <p>Its monitor also orders the step-opener's work: a {@link StepOpener} decides, opens and posts
 * the answer to a report while it holds this object's lock, and the task thread closes the gate and
 * drains the opened steps under the same lock ({@link ReaderStateMachine}). So the answers to
 * successive reports reach the queue in report order, and no step is opened once the gate is
 * closed. The reader's {@link CrossClusterBlocks} change hands under the same lock.
 *
 * <p>Shared state, all guarded by this object's monitor (every method takes it):
 *
 * <ul>
 *   <li>the task thread: {@link #hold} (a step it took itself), {@link #unhold} (a step read or
 *       cut), {@link #takenUp}, and {@link #close()} inside its own {@code synchronized} block;
 *   <li>a step-opener thread, inside {@link StepOpener#open}'s {@code synchronized} block: {@link
 *       #isClosed()}, {@link #roomFor}, {@link #hold} (via {@link StepTaker}), {@link
 *       #openedAhead()}, {@link #describeHeld()}.
 * </ul>
 *
 * Why shared and not handed over as an event: the room check must see the task's reads as they
 * happen, while the task thread may be blocked reading the reported step's last block or busy with
 * its records; an event would reach the task thread only when it reads again.
 */
final class OpenerGate {
  /**
   * No grant may be opened off the task thread any more (the reader went ungated, or its task
   * ended). Only ever set.
   */
  @GuardedBy("this")
  private boolean closed;

  /**
   * Steps whose blocks were taken and that the task has not read to the end, with the bytes they
   * took. Invariant: {@code heldBytes} is the sum of the values.
   */
  @GuardedBy("this")
  private final Map<StepRun, Long> held = new IdentityHashMap<>();

  @GuardedBy("this")
  private long heldBytes;

  /** Steps opened off the task thread that the task thread has not taken up yet. */
  @GuardedBy("this")
  private int openedAhead;

  /** No grant is opened off the task thread from now on. */
  synchronized void close() {
    closed = true;
  }

  /**
   * @return whether {@link #close()} was called
   */
  synchronized boolean isClosed() {
    return closed;
  }

  /**
   * Counts a step whose blocks were taken until the task has read it ({@link #unhold}).
   *
   * @param s the step; holding it again replaces its bytes
   */
  synchronized void hold(StepRun s) {
    unhold(s);
    long bytes = s.takenBytes();
    held.put(s, bytes);
    heldBytes += bytes;
  }

  /**
   * @param s a step the task has read (or cut); nothing when it was not held
   */
  synchronized void unhold(StepRun s) {
    Long bytes = held.remove(s);
    if (bytes != null) {
      heldBytes -= bytes;
    }
  }

  /**
   * Whether the grant {@code g}, the answer to {@code reported}'s report, may be opened now, off
   * the task thread: yes when no step but {@code reported} is still to be read (the task reads it
   * while the next one flows), or when the steps still to be read (taken up or not) and the new one
   * together fit within what Spark's fetcher requests at once ({@code
   * spark.reducer.maxSizeInFlight}). So a task that runs a few steps behind the network (busy with
   * the records of a large block, say) keeps its grants, a task that has stalled hands them back,
   * and a reader never buffers more than Spark's own reader would, or two steps.
   *
   * @param reported the step whose report {@code g} answers
   * @param g a grant
   * @param maxStepBytes what the fetcher requests at once, bytes
   * @return whether there is room for it
   */
  synchronized boolean roomFor(StepRun reported, GrantReply g, long maxStepBytes) {
    int others = held.size() - (held.containsKey(reported) ? 1 : 0);
    if (others <= 0) {
      return true;
    }
    long budget = 0;
    for (long b : g.budgets()) {
      budget += Math.max(0, b);
    }
    return Math.min(budget, maxStepBytes) <= maxStepBytes - heldBytes;
  }

  /** A step was opened off the task thread and posted. */
  synchronized void openedAhead() {
    openedAhead++;
  }

  /** The task thread took up a step opened off it. */
  synchronized void takenUp() {
    openedAhead = Math.max(0, openedAhead - 1);
  }

  /**
   * @return for the log: the steps not read yet, their bytes, and how many were not taken up
   */
  synchronized String describeHeld() {
    return held.size()
        + " step(s) of "
        + heldBytes
        + " B not read yet"
        + (openedAhead == 0 ? "" : ", " + openedAhead + " of them not taken up");
  }

  /**
   * @return steps held (taken, not read to the end)
   */
  synchronized int heldSteps() {
    return held.size();
  }

  /**
   * @return bytes of the steps held
   */
  synchronized long heldBytes() {
    return heldBytes;
  }
}
