package io.wanshuffle.spark.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class NetworkMeterTest {
  @Test
  void theEstimateFollowsTheFlowsAsTheyEnd() {
    NetworkMeter m = new NetworkMeter(Flows.routes(2));
    assertSame(NetworkEstimate.EMPTY, m.estimate());
    for (MeasuredFlow f : Flows.steps(20, 2, 1e6, 0)) {
      m.add(f);
    }
    m.add(new MeasuredFlow("a0", "b0", 0, 1, 2, 3)); // no bytes: ignored
    NetworkEstimate e = m.estimate();
    assertEquals(40, e.flows());
    assertSame(e, m.estimate(), "no flow ended since: the same estimate");
    assertEquals(2e6, e.rate("backbone.out[/a]"), 2e6 * 0.01);
  }

  @Test
  void onlyTheMostRecentFlowsAreKept() {
    NetworkMeter m = new NetworkMeter(Flows.routes(2));
    for (int i = 0; i < NetworkMeter.WINDOW + 10; i++) {
      m.add(new MeasuredFlow("a0", "b0", 1000 + i, 0, 10 + i, 20 + i));
    }
    assertEquals(NetworkMeter.WINDOW, m.flows().size());
    assertEquals(1010, m.flows().get(0).bytes());
  }

  @Test
  void aFlowIsAddedWhileAnEstimateIsComputedAndMakesItStale() throws Exception {
    CountDownLatch computing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    NetworkEstimator.Routes plain = Flows.routes(2);
    NetworkMeter m =
        new NetworkMeter(
            (s, d) -> {
              computing.countDown();
              try {
                release.await(10, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return plain.links(s, d);
            });
    for (MeasuredFlow f : Flows.steps(5, 2, 1e6, 0)) {
      m.add(f);
    }
    assertTrue(m.stale());
    CompletableFuture<NetworkEstimate> first = CompletableFuture.supplyAsync(m::estimate);
    assertTrue(computing.await(10, TimeUnit.SECONDS));
    // the estimate is being computed: adding a flow does not wait for it
    m.add(new MeasuredFlow("a0", "b0", 1_000_000, 0, 10, 20));
    release.countDown();
    assertEquals(10, first.get(10, TimeUnit.SECONDS).flows(), "the flows when it started");
    assertTrue(m.stale(), "a flow was added since");
    assertEquals(11, m.estimate().flows());
    assertFalse(m.stale());
  }
}
