package io.wanshuffle.spark.coordinator.event;

import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's listeners as one: each event goes to every listener in order, and an exception
 * a listener throws is logged and swallowed, so a listener can never break or stall a shuffle
 * ({@link CoordinatorListener}'s contract).
 */
public final class Listeners {
  private static final Logger LOG = LoggerFactory.getLogger(Listeners.class);
  private final List<CoordinatorListener> all;

  /**
   * @param all the listeners, in the order they are called
   */
  public Listeners(List<CoordinatorListener> all) {
    this.all = List.copyOf(all);
  }

  /**
   * @param call the event, applied to each listener
   */
  public void fire(Consumer<CoordinatorListener> call) {
    for (CoordinatorListener l : all) {
      try {
        call.accept(l);
      } catch (RuntimeException e) {
        LOG.warn("wan-shuffle coordinator listener {} failed", l.getClass().getName(), e);
      }
    }
  }
}
