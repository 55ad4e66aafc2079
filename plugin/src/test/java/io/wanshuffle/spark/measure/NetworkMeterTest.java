package io.wanshuffle.spark.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

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
}
