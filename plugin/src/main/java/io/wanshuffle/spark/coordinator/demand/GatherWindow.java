package io.wanshuffle.spark.coordinator.demand;

import io.wanshuffle.spark.coordinator.event.CoordinatorTimer;

/**
 * The gather window ({@code spark.wanshuffle.coordinator.gatherWindow}): when the coordinator is
 * idle, the first registration opens it so that a wave of reduce tasks is planned together; it
 * closes when it elapses, when a plan starts, or early once every task the driver launched in the
 * stages with demand has registered or ended ({@link TaskWaves#waveRegistered}).
 *
 * <p>Not thread-safe: used under the coordinator's lock; the elapsed callback runs on the timer's
 * thread and must take the lock and call {@link #elapsed}.
 */
public final class GatherWindow {
  private final CoordinatorTimer timer;
  private final long windowMs;
  private CoordinatorTimer.Cancellable pending;

  /**
   * @param timer schedules the window's end
   * @param windowMs the window, ms
   */
  public GatherWindow(CoordinatorTimer timer, long windowMs) {
    this.timer = timer;
    this.windowMs = windowMs;
  }

  /**
   * @return true while a window is open
   */
  public boolean isOpen() {
    return pending != null;
  }

  /**
   * Opens a window.
   *
   * @param onElapsed run on the timer's thread when the window elapses
   */
  public void open(Runnable onElapsed) {
    pending = timer.schedule(onElapsed, windowMs);
  }

  /** The window elapsed (called by its callback, under the lock). */
  public void elapsed() {
    pending = null;
  }

  /**
   * Closes the window if open.
   *
   * @return true when a window was open
   */
  public boolean close() {
    if (pending == null) {
      return false;
    }
    pending.cancel();
    pending = null;
    return true;
  }
}
