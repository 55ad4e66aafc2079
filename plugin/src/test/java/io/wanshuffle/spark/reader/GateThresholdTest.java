package io.wanshuffle.spark.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.coordinator.protocol.Registered;
import io.wanshuffle.spark.topology.LinkModel;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class GateThresholdTest {
  /** Nothing typed: β 50 ms and the 100 Mbit/s NIC start rate (δ = 1). */
  private final WanShuffleConf conf = WanShuffleConf.from(new SparkConf(false));

  private final LinkModel startLinks =
      LinkModel.kpbs(conf.k(), conf::delta, h -> h.substring(0, 1), conf.baseSpeed());

  @Test
  void beforeAnyAnswerTheExecutorsOwnLinksGiveTheThreshold() {
    GateThreshold t = new GateThreshold();
    // 4 x 3 steps x 0.05 s x 12.5 MB/s
    assertEquals(7_500_000, t.minBytes(conf, 3, startLinks, "b1"));
    t.learn(new Registered(7, true)); // an answer without the coordinator's links
    assertEquals(7_500_000, t.minBytes(conf, 3, startLinks, "b1"));
  }

  @Test
  void theLatestAnswersBaseSpeedAndDeltaGiveTheThreshold() {
    GateThreshold t = new GateThreshold();
    t.learn(new Registered(7, true).withLinks(8_300_000, 1));
    // the driver measured 66 Mbit/s flows: 4 x 3 steps x 0.05 s x 8.3 MB/s
    assertEquals(4_980_000, t.minBytes(conf, 3, startLinks, "b1"));
    t.learn(new Registered(8, true).withLinks(125_000_000, 2));
    // 1 Gbit/s flows, two at once into the host: ceil(3 / 2) = 2 steps
    assertEquals(50_000_000, t.minBytes(conf, 3, startLinks, "b1"));
  }

  @Test
  void aConfiguredSizeIgnoresTheLinks() {
    WanShuffleConf sized =
        WanShuffleConf.from(new SparkConf(false).set(Settings.GATE_MIN_BYTES.key(), "1m"));
    GateThreshold t = new GateThreshold();
    t.learn(new Registered(7, true).withLinks(125_000_000, 2));
    assertEquals(1L << 20, t.minBytes(sized, 3, startLinks, "b1"));
  }
}
