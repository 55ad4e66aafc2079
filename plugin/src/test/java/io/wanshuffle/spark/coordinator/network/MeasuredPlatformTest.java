package io.wanshuffle.spark.coordinator.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.measure.LinkRate;
import io.wanshuffle.spark.measure.NetworkEstimate;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class MeasuredPlatformTest {
  private static final WanShuffleConf NIC_AUTO = conf(Settings.NIC_RATE.key(), "auto");

  private static WanShuffleConf conf(String... kv) {
    SparkConf c = new SparkConf(false).set(Settings.ALGORITHM.key(), "greedy-test");
    for (int i = 0; i < kv.length; i += 2) {
      c.set(kv[i], kv[i + 1]);
    }
    return WanShuffleConf.from(c, Set.of("greedy-test"));
  }

  private static NetworkEstimate estimate(Object... linkRates) {
    Map<String, LinkRate> rates = new HashMap<>();
    for (int i = 0; i < linkRates.length; i += 2) {
      String l = (String) linkRates[i];
      rates.put(l, new LinkRate(l, ((Number) linkRates[i + 1]).doubleValue(), 10, false));
    }
    return new NetworkEstimate(0.1, 0.05, 0.05, rates, 40);
  }

  @Test
  void kIsTheSlowestBackboneSideOverTheSlowestNic() {
    MeasuredPlatform p =
        MeasuredPlatform.of(
                estimate(
                    "backbone.out[/a]", 25e6,
                    "backbone.in[/b]", 24e6,
                    "nic.up[a0]", 6.2e6,
                    "nic.down[b0]", 5.9e6,
                    "nic.up[a1]", 13e6,
                    "nic.down[b1]", 12.5e6),
                NIC_AUTO)
            .orElseThrow();
    assertEquals(4, p.k(), "round(24 / 5.9)");
    assertEquals(6_000_000, p.baseSpeed(), "24 MB/s / 4");
    assertEquals(1, p.delta("a0", 0));
    assertEquals(2, p.delta("b1", 0), "round(12.5 / 6)");
    assertEquals(1, p.delta("c9", 0), "not measured: the slowest measured NIC");
    assertEquals(3, p.delta("a0", 3), "a set δ is kept");
    assertEquals(4, p.delta("a0", 9), "capped by k");
  }

  @Test
  void aBackboneSlowerThanANicGivesOneFlow() {
    MeasuredPlatform p =
        MeasuredPlatform.of(estimate("backbone.out[/a]", 25e6, "nic.up[a0]", 125e6), NIC_AUTO)
            .orElseThrow();
    assertEquals(1, p.k());
    assertEquals(25_000_000, p.baseSpeed());
  }

  @Test
  void withoutBothABackboneAndANicRateThereIsNone() {
    assertTrue(MeasuredPlatform.of(estimate("nic.up[a0]", 1e6), NIC_AUTO).isEmpty());
    assertTrue(MeasuredPlatform.of(estimate("backbone.in[/b]", 1e6), NIC_AUTO).isEmpty());
    assertTrue(MeasuredPlatform.of(NetworkEstimate.EMPTY, NIC_AUTO).isEmpty());
    assertTrue(MeasuredPlatform.of(estimate("nic.up[a0]", 1e6), conf()).isEmpty());
  }

  @Test
  void nothingTypedMeasuresTheBackboneAndTheNics() {
    MeasuredPlatform p =
        MeasuredPlatform.of(
                estimate(
                    "backbone.out[/a]", 24e6,
                    "backbone.in[/b]", 23.5e6,
                    "nic.up[a0]", 12e6,
                    "nic.down[b0]", 11.8e6),
                conf())
            .orElseThrow();
    assertEquals(2, p.k(), "round(23.5 / 11.8): the base-speed rule of 200 / 100 Mbit/s");
    assertEquals(11_750_000, p.baseSpeed());
    assertEquals(1, p.delta("a0", 0));
  }

  @Test
  void aMeasurementOfUngatedFlowsOnlyGivesNoK() {
    Map<String, LinkRate> rates =
        Map.of(
            "backbone.in[/b]", new LinkRate("backbone.in[/b]", 150e6, 36, false),
            "nic.up[a0]", new LinkRate("nic.up[a0]", 3.5e6, 12, false));
    NetworkEstimate ungated = new NetworkEstimate(Double.NaN, Double.NaN, 0, rates, 36);
    assertTrue(MeasuredPlatform.of(ungated, conf()).isEmpty());
    assertEquals(
        43,
        MeasuredPlatform.of(new NetworkEstimate(0.1, 0.05, 0.05, rates, 36), conf())
            .orElseThrow()
            .k(),
        "the same rates with a gated flow");
  }

  @Test
  void aMeasuredBackboneOfAboutOneNicGivesNoK() {
    // flows that never ran side by side: the backbone shows one NIC's rate, whatever its own
    assertTrue(
        MeasuredPlatform.of(estimate("backbone.in[/b]", 10.9e6, "nic.up[a0]", 11.4e6), conf())
            .isEmpty());
    assertTrue(
        MeasuredPlatform.of(estimate("backbone.in[/b]", 16e6, "nic.up[a0]", 11.4e6), conf())
            .isEmpty());
    assertEquals(
        2,
        MeasuredPlatform.of(estimate("backbone.in[/b]", 17.5e6, "nic.up[a0]", 11.4e6), conf())
            .orElseThrow()
            .k(),
        "1.5 NICs: two flows ran at once");
    assertEquals(
        1,
        MeasuredPlatform.of(estimate("backbone.in[/b]", 7e6, "nic.up[a0]", 11.4e6), conf())
            .orElseThrow()
            .k(),
        "under 2/3 of a NIC: the backbone held the flow back");
    WanShuffleConf set = conf(Settings.BACKBONE_RATE.key(), "11000000");
    assertEquals(
        1,
        MeasuredPlatform.of(estimate("nic.up[a0]", 11.4e6), set).orElseThrow().k(),
        "a configured backbone is never inconclusive");
  }

  @Test
  void aBackboneRateSetExplicitlyIsUsedAsConfigured() {
    // configured 30 MB/s; the measured 20 MB/s (a backbone the flows did not fill) is not used
    WanShuffleConf c = conf(Settings.BACKBONE_RATE.key(), "30000000");
    MeasuredPlatform p =
        MeasuredPlatform.of(estimate("backbone.in[/b]", 20e6, "nic.up[a0]", 10e6), c).orElseThrow();
    assertEquals(3, p.k(), "30 / 10");
    assertEquals(10_000_000, p.baseSpeed());
    assertEquals(30e6, p.backboneRate());
    assertTrue(
        MeasuredPlatform.of(estimate("nic.up[a0]", 10e6), c).isPresent(),
        "no backbone measurement needed");
  }

  @Test
  void hostsListedInNicRatesKeepTheirRateWhenTheOthersAreMeasured() {
    WanShuffleConf c = conf(Settings.NIC_RATES.key(), "b7=50000000");
    MeasuredPlatform p =
        MeasuredPlatform.of(
                estimate(
                    "backbone.in[/b]", 40e6,
                    "nic.up[a0]", 10e6,
                    "nic.down[b7]", 3e6),
                c)
            .orElseThrow();
    assertEquals(4, p.k(), "40 / 10: b7's measured 3 MB/s is not used");
    assertEquals(50e6, p.nicRates().get("b7"));
    assertEquals(4, p.delta("b7", 0), "round(50 / 10), capped by k");
    assertEquals(1, p.delta("c9", 0), "not measured: the slowest measured NIC");
  }

  @Test
  void configuredNicRatesAreThePerFlowRate() {
    // nic.rate 100 MB/s, node b7 250 MB/s; the measured NIC rates are not used
    WanShuffleConf c =
        conf(
            Settings.NIC_RATE.key(),
            "100000000",
            Settings.NIC_RATES.key(),
            "b7=250000000",
            Settings.K.key(),
            "auto");
    MeasuredPlatform p =
        MeasuredPlatform.of(estimate("backbone.in[/b]", 610e6, "nic.up[a0]", 5e6), c).orElseThrow();
    assertEquals(6, p.k(), "round(610 / 100)");
    assertEquals(101_666_666, p.baseSpeed());
    assertEquals(1, p.delta("a0", 0));
    assertEquals(2, p.delta("b7", 0), "round(250 / 101.7)");
    MeasuredPlatform slow =
        MeasuredPlatform.of(
                estimate("backbone.in[/b]", 25e6), conf(Settings.NIC_RATE.key(), "1gbit"))
            .orElseThrow();
    assertEquals(1, slow.k(), "a 25 MB/s backbone under 1 gbit NICs: one flow");
    assertEquals(25_000_000, slow.baseSpeed());
  }
}
