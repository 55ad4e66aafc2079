package io.wanshuffle.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class PlatformRatesTest {
  private static SparkConf conf(String... kv) {
    SparkConf c = new SparkConf(false);
    for (int i = 0; i < kv.length; i += 2) {
      c.set(kv[i], kv[i + 1]);
    }
    return c;
  }

  /** The DGGP paper's running example (sec. 2.3): backbone 200, NICs 300, 200, 100 Mbit/s. */
  @Test
  void theBaseSpeedRuleOnThePapersExample() {
    PlatformRates p =
        PlatformRates.from(
            conf(
                Settings.BACKBONE_RATE.key(), "200mbit",
                Settings.NIC_RATE.key(), "100mbit",
                Settings.NIC_RATES.key(), "n1=300mbit,n2=200mbit,nB=300mbit"));
    assertEquals(12_500_000L, p.baseSpeed(), "100 Mbit/s");
    assertEquals(2, p.k());
    assertEquals(2, p.delta("n1"), "δ(1) = 3, reduced to k");
    assertEquals(2, p.delta("n2"));
    assertEquals(1, p.delta("nA"));
    assertEquals(37_500_000L, p.nicRate("n1"));
    assertEquals(12_500_000L, p.nicRate("nA"));
    assertEquals(25_000_000L, p.backboneRate());
    assertEquals(12_500_000L, p.defaultNicRate());
  }

  @Test
  void kAndDeltaSetDirectlyOverrideTheRule() {
    PlatformRates p =
        PlatformRates.from(
            conf(
                Settings.BACKBONE_RATE.key(),
                "800mbit",
                Settings.K.key(),
                "4",
                Settings.DELTA.key(),
                "9"));
    assertEquals(4, p.k());
    assertEquals(25_000_000L, p.baseSpeed(), "backbone / k");
    assertEquals(4, p.delta("h"), "δ capped by k");
  }

  @Test
  void flowsUnderOneBytePerSecondAreRefusedNamingK() {
    ConfigValueException e =
        assertThrows(
            ConfigValueException.class,
            () ->
                PlatformRates.from(
                    conf(Settings.BACKBONE_RATE.key(), "100", Settings.K.key(), "1000")));
    assertEquals(Settings.K.key(), e.key());
    assertEquals("1000", e.value());
  }

  @Test
  void mixedByteAndBitUnitsAreWarnedAboutUnlessDeltaIsSet() {
    SparkConf mixed =
        conf(Settings.BACKBONE_RATE.key(), "100mb", Settings.NIC_RATE.key(), "100mbit");
    Optional<String> w = PlatformRates.from(mixed).incommensurateWarning(mixed);
    assertTrue(w.isPresent());
    assertTrue(
        w.get()
            .startsWith(
                "wan-shuffle: spark.wanshuffle.backbone.rate = '100mb' and"
                    + " spark.wanshuffle.nic.rate = '100mbit' share no large common divisor"),
        w.get());
    mixed.set(Settings.DELTA.key(), "1");
    assertEquals(Optional.empty(), PlatformRates.from(mixed).incommensurateWarning(mixed));
    SparkConf bits =
        conf(Settings.BACKBONE_RATE.key(), "200mbit", Settings.NIC_RATE.key(), "100mbit");
    assertEquals(Optional.empty(), PlatformRates.from(bits).incommensurateWarning(bits));
  }
}
