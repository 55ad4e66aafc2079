package io.wanshuffle.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WanShuffleConfTest {
  private static final Set<String> ALGS = Set.of("oggp", "ggp");

  private static WanShuffleConf conf(String... kv) {
    SparkConf c = new SparkConf(false).set(WanShuffleConf.ALGORITHM, "oggp");
    for (int i = 0; i < kv.length; i += 2) {
      c.set(kv[i], kv[i + 1]);
    }
    return WanShuffleConf.from(c, ALGS);
  }

  @Test
  void defaultsFollowTheBaseSpeedRule() {
    WanShuffleConf c = conf();
    assertTrue(c.gated());
    assertEquals(
        12_500_000L,
        c.baseSpeed(),
        "gcd(1 gbit/s, 100 Mbit/s) = 100 Mbit/s in bytes (start rates)");
    assertEquals(10, c.k());
    assertEquals(1, c.delta("any"));
    assertEquals(0.05, c.betaSeconds(), 1e-12);
    assertEquals(0, c.flowRateCap());
  }

  @Test
  void perHostNicRatesGiveDeltaByTheBaseSpeedRule() {
    WanShuffleConf c =
        conf(
            WanShuffleConf.BACKBONE_RATE,
            "1gbit",
            WanShuffleConf.NIC_RATE,
            "100mbit",
            WanShuffleConf.NIC_RATES,
            "fast=300mbit, huge=10gbit");
    assertEquals(12_500_000L, c.baseSpeed());
    assertEquals(10, c.k());
    assertEquals(3, c.delta("fast"));
    assertEquals(10, c.delta("huge"), "delta is capped by k");
    assertEquals(1, c.delta("other"));
    assertEquals(37_500_000L, c.nicRate("fast"));
  }

  @Test
  void planningBudgetAndFallbackAreValidated() {
    WanShuffleConf d = conf();
    assertEquals(500, d.planningBudgetMs());
    assertEquals("greedy", d.planningFallback());
    WanShuffleConf c =
        conf(WanShuffleConf.PLANNING_BUDGET, "2s", WanShuffleConf.PLANNING_FALLBACK, "GGP");
    assertEquals(2000, c.planningBudgetMs());
    assertEquals("ggp", c.planningFallback());
    assertEquals(0, conf(WanShuffleConf.PLANNING_BUDGET, "0").planningBudgetMs(), "0 = unbounded");
    ConfigValueException e =
        assertThrows(
            ConfigValueException.class, () -> conf(WanShuffleConf.PLANNING_FALLBACK, "fastest"));
    assertEquals(
        "spark.wanshuffle.planning.fallback = 'fastest': unknown algorithm; known: "
            + "greedy, "
            + String.join(", ", ALGS),
        e.getMessage());
    e =
        assertThrows(
            ConfigValueException.class, () -> conf(WanShuffleConf.PLANNING_FALLBACK, " Exact"));
    assertTrue(
        e.getMessage().startsWith("spark.wanshuffle.planning.fallback = ' Exact': "),
        e.getMessage());
    e = assertThrows(ConfigValueException.class, () -> conf(WanShuffleConf.ALGORITHM, "OGGPx"));
    assertTrue(
        e.getMessage().startsWith("spark.wanshuffle.algorithm = 'OGGPx': unknown algorithm"),
        e.getMessage());
    e =
        assertThrows(
            ConfigValueException.class, () -> conf(WanShuffleConf.PLANNING_BUDGET, "soon"));
    assertTrue(
        e.getMessage().startsWith("spark.wanshuffle.planning.budget = 'soon'"), e.getMessage());
  }

  @Test
  void stepHandoverIsPredictedByDefaultAndValidated() {
    assertTrue(conf().predictedHandover());
    assertFalse(conf(WanShuffleConf.STEP_HANDOVER, "Arrival").predictedHandover());
    assertTrue(conf().stepProgress(), "blocks of predicted steps are streamed by default");
    assertFalse(conf(WanShuffleConf.STEP_PROGRESS, "false").stepProgress());
    assertEquals(
        "spark.wanshuffle.step.progress = 'maybe': expected true or false",
        assertThrows(ConfigValueException.class, () -> conf(WanShuffleConf.STEP_PROGRESS, "maybe"))
            .getMessage());
    assertEquals(
        "spark.wanshuffle.step.progress = ' Maybe ': expected true or false",
        assertThrows(
                ConfigValueException.class, () -> conf(WanShuffleConf.STEP_PROGRESS, " Maybe "))
            .getMessage(),
        "the value as given, not as compared");
    ConfigValueException e =
        assertThrows(ConfigValueException.class, () -> conf(WanShuffleConf.STEP_HANDOVER, "early"));
    assertEquals(
        "spark.wanshuffle.step.handover = 'early': expected predicted or arrival", e.getMessage());
  }

  @Test
  void aReadIsGatedWhenItsBytesLastAtLeastFourTimesTheSetupOfItsSteps() {
    // start values here: 1 gbit/s backbone, 100 Mbit/s NICs: base speed 12.5 MB/s, k = 10, δ = 1,
    // β = 50 ms
    WanShuffleConf c = conf();
    assertTrue(c.gateMinBytesAuto());
    long perStep = 4 * 12_500_000L / 20; // 4 x β x b
    assertEquals(perStep, c.gateMinBytes(1, "h1"));
    assertEquals(
        3 * perStep, c.gateMinBytes(3, "h1"), "1-port receiver: a read from 3 hosts takes 3 steps");
    assertEquals(perStep, c.gateMinBytes(0, "h1"), "at least one step");
    // a receiver with 2 ports (δ = 2) takes two of its sources per step
    WanShuffleConf fast = conf(WanShuffleConf.NIC_RATES, "h2=200mbit");
    assertEquals(2 * perStep, fast.gateMinBytes(3, "h2"));
    assertEquals(3 * perStep, fast.gateMinBytes(3, "h1"));
    // β scales it: a WAN's set-up delay of 130 ms
    assertEquals(
        3 * 4 * 12_500_000L * 13 / 100, conf(WanShuffleConf.BETA, "130ms").gateMinBytes(3, "h1"));
    assertEquals(perStep, conf(WanShuffleConf.GATE_MIN_BYTES, " AUTO ").gateMinBytes(1, "h1"));
    // a size applies to every read
    assertEquals(
        0, conf(WanShuffleConf.GATE_MIN_BYTES, "0").gateMinBytes(3, "h1"), "0 gates every read");
    assertFalse(conf(WanShuffleConf.GATE_MIN_BYTES, "0").gateMinBytesAuto());
    assertEquals(4L << 20, conf(WanShuffleConf.GATE_MIN_BYTES, "4m").gateMinBytes(1, "h1"));
    assertEquals(512, conf(WanShuffleConf.GATE_MIN_BYTES, "512b").gateMinBytes(5, "h1"));
    assertTrue(
        c.toString().contains("gate min bytes=auto (" + perStep + " B per step)"), c.toString());
    for (String bad : List.of("lots", "-1")) {
      assertEquals(
          "spark.wanshuffle.gate.minBytes = '"
              + bad
              + "': expected a size of at least 0 such as 0, 512k, 4m (bytes)",
          assertThrows(ConfigValueException.class, () -> conf(WanShuffleConf.GATE_MIN_BYTES, bad))
              .getMessage());
    }
  }

  @Test
  void everyKeyIsDocumentedAndInTheExampleConfiguration() throws java.io.IOException {
    String doc = java.nio.file.Files.readString(java.nio.file.Path.of("../docs/configuration.md"));
    String example =
        java.nio.file.Files.readString(java.nio.file.Path.of("../conf/spark-defaults.conf"));
    for (String key : Settings.keys()) {
      assertTrue(doc.contains("| `" + key + "` |"), key + " has no row in docs/configuration.md");
      assertTrue(example.contains(key + " "), key + " is not in conf/spark-defaults.conf");
    }
  }

  @Test
  void kAndDeltaCanBeSetDirectly() {
    WanShuffleConf c =
        conf(
            WanShuffleConf.BACKBONE_RATE,
            "800mbit",
            WanShuffleConf.K,
            "4",
            WanShuffleConf.DELTA,
            "2",
            WanShuffleConf.FLOW_RATE_CAP,
            "base");
    assertEquals(4, c.k());
    assertEquals(25_000_000L, c.baseSpeed(), "base speed = backbone / k");
    assertEquals(2, c.delta("h"));
    assertEquals(25_000_000L, c.flowRateCap());
  }

  @Test
  void rateUnits() {
    assertEquals(12_500_000L, Rates.parse("k", "100mbit/s"));
    assertEquals(312_500_000L, Rates.parse("k", "2.5gbps"));
    assertEquals(1_048_576L, Rates.parse("k", "1m"));
    assertEquals(42L, Rates.parse("k", "42"));
  }

  @Test
  void noneTurnsGatingOff() {
    assertFalse(conf(WanShuffleConf.ALGORITHM, "NONE").gated());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "spark.wanshuffle.algorithm|bogus|known: ",
        "spark.wanshuffle.k|0|integer >= 1",
        "spark.wanshuffle.k|many|integer >= 1",
        "spark.wanshuffle.delta|-1|integer >= 1",
        "spark.wanshuffle.beta|fast|expected a time",
        "spark.wanshuffle.backbone.rate|12 parsecs|rate",
        "spark.wanshuffle.nic.rate|0|rate must be between",
        "spark.wanshuffle.nic.rates|nodeA|host=rate",
        "spark.wanshuffle.nic.rates|nodeA=1gbit,nodeB=2gbit,nodeA=10gbit|host nodeA is listed twice",
        "spark.wanshuffle.nic.rates|nodeA=1gbit,,|entry '' is not host=rate",
        "spark.wanshuffle.grant.pollInterval|110000d|must be at most 365d",
        "spark.wanshuffle.coordinator.askTimeout|366d|must be at most 365d",
        "spark.wanshuffle.step.deadlineFactor|0.5|>= 1",
        "spark.wanshuffle.step.minDeadline|0ms|at least 1 ms",
        "spark.wanshuffle.flow.rateCap|quick|rate",
        "spark.wanshuffle.grant.maxWait|-5s|at least 1 ms",
        // k x 2 directions must fit an int in the planner
        "spark.wanshuffle.k|1073741825|<= 1000000",
        "spark.wanshuffle.k|\u0663|integer >= 1",
        "spark.wanshuffle.delta|\uff13|integer >= 1",
        "spark.wanshuffle.k|2.0|integer >= 1",
        "spark.wanshuffle.step.deadlineFactor|3d|decimal number",
        "spark.wanshuffle.step.deadlineFactor|0x1p3|decimal number",
        "spark.wanshuffle.step.deadlineFactor|1e308|<= 1000",
        "spark.wanshuffle.step.minDeadline|9223372036854775807ms|at most 365d",
        "spark.wanshuffle.beta|106752d|at most 365d",
        "spark.wanshuffle.planning.budget|900us|under 1 ms",
        "spark.wanshuffle.coordinator.gatherWindow|999us|under 1 ms",
        "spark.wanshuffle.beta|500us|under 1 ms",
        "spark.wanshuffle.nic.rates|hostA=1gbit,hostB=fast|entry 'hostB=fast': ",
      })
  void badValuesFailFastNamingKeyAndValue(String key, String value, String expected) {
    ConfigValueException e = assertThrows(ConfigValueException.class, () -> conf(key, value));
    assertEquals(key, e.key());
    assertEquals(value, e.value().trim().isEmpty() ? value : e.value());
    assertTrue(e.getMessage().startsWith(key + " = '"), e.getMessage());
    assertTrue(e.getMessage().contains(value) || key.endsWith("algorithm"), e.getMessage());
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }

  @Test
  void kAboveTheBackbonesBytesPerSecondIsRefusedAndTimesKeepTheirMeaning() {
    ConfigValueException e =
        assertThrows(
            ConfigValueException.class,
            () -> conf(WanShuffleConf.BACKBONE_RATE, "100", WanShuffleConf.K, "1000"));
    assertTrue(
        e.getMessage().contains("more flows than the backbone's 100 bytes/s"), e.getMessage());
    assertEquals(10, conf(WanShuffleConf.BACKBONE_RATE, "100", WanShuffleConf.K, "10").baseSpeed());
    // a bare number is milliseconds; 0 stays 0 (unbounded budget, no gather window); 1999us is 1 ms
    assertEquals(30, conf(WanShuffleConf.ASK_TIMEOUT, "30").askTimeoutMs());
    assertEquals(0, conf(WanShuffleConf.PLANNING_BUDGET, "0").planningBudgetMs());
    assertEquals(0, conf(WanShuffleConf.GATHER_WINDOW, "0ms").gatherWindowMs());
    assertEquals(1, conf(WanShuffleConf.GATHER_WINDOW, "1999us").gatherWindowMs());
    assertEquals(Times.MAX_MS, conf(WanShuffleConf.MAX_GRANT_WAIT, "365d").maxGrantWaitMs());
  }

  /** Rates without a sizeable common divisor: the message gives the rates and the way out, once. */
  @Test
  void ratesGivingTooManyFlowsNameTheRatesAndTheWayOut() {
    ConfigValueException e =
        assertThrows(
            ConfigValueException.class,
            () -> conf(WanShuffleConf.BACKBONE_RATE, "200mbit", WanShuffleConf.NIC_RATE, "7"));
    assertEquals(
        "spark.wanshuffle.backbone.rate = '200mbit': rates give k = 25000000 flows of the base speed 1 B/s"
            + " (their greatest common divisor), more than 1000000: round the rates (backbone 25000000 B/s, NICs [7]"
            + " B/s from spark.wanshuffle.nic.rate and spark.wanshuffle.nic.rates), or set spark.wanshuffle.k directly",
        e.getMessage());
  }

  @Test
  void unknownAlgorithmListsTheKnownOnes() {
    ConfigValueException e =
        assertThrows(ConfigValueException.class, () -> conf(WanShuffleConf.ALGORITHM, "fastest"));
    assertTrue(e.getMessage().contains("none"), e.getMessage());
    assertTrue(e.getMessage().contains("oggp"), e.getMessage());
  }

  @Test
  void betaAndKAcceptAuto() {
    WanShuffleConf fixed = conf(WanShuffleConf.BETA, "20ms", WanShuffleConf.K, "4");
    assertEquals(0.02, fixed.betaSeconds(), 1e-12);
    assertFalse(fixed.betaAuto());
    assertFalse(fixed.kAuto());
    assertEquals(4, fixed.k());
    WanShuffleConf auto = conf(WanShuffleConf.BETA, " AUTO ", WanShuffleConf.K, "auto");
    assertTrue(auto.betaAuto());
    assertEquals(WanShuffleConf.AUTO_BETA_START_SECONDS, auto.betaSeconds(), 1e-12);
    assertTrue(auto.kAuto());
    WanShuffleConf unset = conf();
    assertTrue(unset.betaAuto() && unset.kAuto(), "auto is the default of beta and k");
    assertEquals(unset.k(), auto.k(), "auto starts from the base-speed rule");
    assertEquals(unset.baseSpeed(), auto.baseSpeed());
  }

  @Test
  void badBetaOrKStopsStartUpNamingTheKey() {
    for (String[] kv :
        new String[][] {
          {WanShuffleConf.BETA, "-1"},
          {WanShuffleConf.BETA, "autox"},
          {WanShuffleConf.K, "auto5"},
          {WanShuffleConf.K, "0"},
          {WanShuffleConf.K, "-3"},
          {WanShuffleConf.BACKBONE_RATE, "autox"},
          {WanShuffleConf.NIC_RATE, "0"}
        }) {
      ConfigValueException e = assertThrows(ConfigValueException.class, () -> conf(kv));
      assertTrue(e.getMessage().startsWith(kv[0] + " = '" + kv[1] + "'"), e.getMessage());
    }
  }

  @Test
  void ratesAcceptAutoAndStartConservatively() {
    WanShuffleConf nic =
        conf(WanShuffleConf.NIC_RATE, "auto", WanShuffleConf.BACKBONE_RATE, "200mbit");
    assertTrue(nic.nicAuto() && !nic.backboneAuto() && nic.platformAuto());
    assertEquals(12_500_000L, nic.nicRate("any"), "starts at 100 Mbit/s");
    assertEquals(2, nic.k(), "gcd(200 mbit, 100 mbit) = 100 mbit");
    WanShuffleConf both =
        conf(
            WanShuffleConf.NIC_RATE,
            "auto",
            WanShuffleConf.NIC_RATES,
            "b7=10mbit",
            WanShuffleConf.BACKBONE_RATE,
            "Auto");
    assertTrue(both.backboneAuto());
    assertEquals(12_500_000L, both.backboneRate(), "10 x the slowest NIC");
    assertEquals(10, both.k());
    assertFalse(
        conf(WanShuffleConf.BACKBONE_RATE, "auto", WanShuffleConf.K, "4").platformAuto(),
        "a number for k is kept");
    assertTrue(conf(WanShuffleConf.K, "auto").platformAuto());
    assertTrue(conf().platformAuto(), "nothing typed: the rates are measured");
    assertFalse(
        conf(WanShuffleConf.BACKBONE_RATE, "200mbit", WanShuffleConf.NIC_RATE, "100mbit")
            .platformAuto(),
        "both rates set: k follows from them");
  }

  @Test
  void nothingTypedMeasuresBetaKAndTheRates() {
    for (ConfigEntry<?> e : List.of(Settings.BETA, Settings.K, Settings.BACKBONE_RATE)) {
      assertEquals("auto", e.defaultText().orElseThrow(), e.key());
    }
    assertEquals("auto", Settings.NIC_RATE.defaultText().orElseThrow());
    WanShuffleConf none = conf();
    assertTrue(none.betaAuto() && none.kAuto() && none.backboneAuto() && none.nicAuto());
    assertTrue(none.platformAuto());
    assertEquals(WanShuffleConf.AUTO_BETA_START_SECONDS, none.betaSeconds(), 1e-12);
    assertEquals(12_500_000L, none.nicRate("any"), "NICs start at 100 Mbit/s");
    assertEquals(125_000_000L, none.backboneRate(), "the backbone at 10 NICs");
    assertEquals(10, none.k());
    assertEquals(1, none.delta("any"));
  }

  @Test
  void aRateSetExplicitlyIsUsedAsConfiguredTheUnsetOneIsMeasured() {
    WanShuffleConf both =
        conf(WanShuffleConf.BACKBONE_RATE, "200mbit", WanShuffleConf.NIC_RATE, "100mbit");
    assertTrue(both.kAuto() && !both.backboneAuto() && !both.nicAuto());
    assertFalse(both.platformAuto(), "nothing left to measure: k = 2 from the rates");
    assertEquals(2, both.k());
    assertEquals(12_500_000L, both.baseSpeed());
    WanShuffleConf nic = conf(WanShuffleConf.NIC_RATE, "100mbit");
    assertTrue(nic.backboneAuto() && !nic.nicAuto() && nic.platformAuto());
    assertEquals(10, nic.k(), "the backbone starts at 10 x the 100 mbit NIC");
    assertEquals(12_500_000L, nic.baseSpeed(), "the start base speed follows the NIC set");
    WanShuffleConf backbone = conf(WanShuffleConf.BACKBONE_RATE, "200mbit");
    assertTrue(!backbone.backboneAuto() && backbone.nicAuto() && backbone.platformAuto());
    assertEquals(2, backbone.k(), "gcd(200 mbit, the 100 mbit start) = 100 mbit: k = 2");
    WanShuffleConf k = conf(WanShuffleConf.K, "3");
    assertFalse(k.kAuto() || k.platformAuto(), "a number for k is never replaced");
    assertEquals(3, k.k());
  }
}
