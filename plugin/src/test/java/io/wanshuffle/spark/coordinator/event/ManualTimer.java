package io.wanshuffle.spark.coordinator.event;

import java.util.ArrayList;
import java.util.List;

/** Test timer: actions run when the test advances the clock past their due time. */
public final class ManualTimer implements CoordinatorTimer {
  private long now = 1_000_000;
  private final List<Object[]> pending = new ArrayList<>();

  public long now() {
    return now;
  }

  @Override
  public Cancellable schedule(Runnable action, long delayMs) {
    Object[] e = {now + delayMs, action, Boolean.FALSE};
    pending.add(e);
    return () -> e[2] = Boolean.TRUE;
  }

  @Override
  public void shutdown() {
    pending.clear();
  }

  /** Advances the clock by {@code ms}, running every due, uncancelled action in time order. */
  public void advance(long ms) {
    long target = now + ms;
    while (true) {
      Object[] next = null;
      for (Object[] e : pending) {
        if (!(Boolean) e[2]
            && (long) e[0] <= target
            && (next == null || (long) e[0] < (long) next[0])) {
          next = e;
        }
      }
      if (next == null) {
        break;
      }
      pending.remove(next);
      now = Math.max(now, (long) next[0]);
      ((Runnable) next[1]).run();
    }
    now = target;
  }
}
