package io.wanshuffle.spark.arbiter;

import java.util.Map;

/**
 * No arbiter: the application holds up to each link's whole window, as if it were the only one on
 * the backbone ({@code spark.wanshuffle.arbiter.zookeeper} empty).
 */
public final class Alone implements BackboneShare {
  /** Does nothing: there is nobody to tell. */
  @Override
  public void publish(Map<String, LinkDemand> demand) {}

  /**
   * @return {@code window}
   */
  @Override
  public int allowed(String link, int window) {
    if (window < 0) {
      throw new IllegalArgumentException("window of " + link + " must be >= 0, got " + window);
    }
    return window;
  }

  /**
   * @return 0: no arbiter, no other application is known
   */
  @Override
  public int othersOn(String link) {
    return 0;
  }

  /** Does nothing: the share never changes. */
  @Override
  public void onChange(Runnable listener) {}

  @Override
  public void close() {}
}
