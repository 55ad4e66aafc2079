package io.wanshuffle.spark.coordinator;

import io.wanshuffle.spark.arbiter.BackboneShare;
import io.wanshuffle.spark.arbiter.LinkDemand;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An arbiter's share that a test sets per link (a link without an entry: the whole window); every
 * demand published is kept, and {@link #onChange} is the coordinator's hook to call when the test
 * moved a share.
 */
final class FakeShare implements BackboneShare {
  final Map<String, Integer> shares = new ConcurrentHashMap<>();
  final Map<String, Integer> others = new ConcurrentHashMap<>();
  final List<Map<String, LinkDemand>> published = new ArrayList<>();
  Runnable onChange = () -> {};

  /** Run after each publish (on the planner's thread, while its round plans). */
  volatile Runnable afterPublish = () -> {};

  @Override
  public int othersOn(String link) {
    return others.getOrDefault(link, 0);
  }

  @Override
  public void publish(Map<String, LinkDemand> demand) {
    synchronized (this) {
      published.add(Map.copyOf(demand));
    }
    afterPublish.run();
  }

  /**
   * @return the last demand published, or an empty map
   */
  synchronized Map<String, LinkDemand> lastPublished() {
    return published.isEmpty() ? Map.of() : published.get(published.size() - 1);
  }

  @Override
  public int allowed(String link, int window) {
    return Math.min(window, shares.getOrDefault(link, window));
  }

  @Override
  public void onChange(Runnable listener) {
    onChange = listener;
  }

  @Override
  public void close() {}
}
