package io.wanshuffle.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WanShuffleConfTest {
  private static final Set<String> ALGS = Set.of("oggp", "ggp");

  private static WanShuffleConf conf(String... kv) {
    SparkConf c = new SparkConf(false).set(Settings.ALGORITHM.key(), "oggp");
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
            Settings.BACKBONE_RATE.key(),
            "1gbit",
            Settings.NIC_RATE.key(),
            "100mbit",
            Settings.NIC_RATES.key(),
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
    assertEquals(500, d.get(Settings.PLANNING_BUDGET));
    assertEquals("greedy", d.get(Settings.PLANNING_FALLBACK));
    WanShuffleConf c =
        conf(Settings.PLANNING_BUDGET.key(), "2s", Settings.PLANNING_FALLBACK.key(), "GGP");
    assertEquals(2000, c.get(Settings.PLANNING_BUDGET));
    assertEquals("ggp", c.get(Settings.PLANNING_FALLBACK));
    assertEquals(
        0,
        conf(Settings.PLANNING_BUDGET.key(), "0").get(Settings.PLANNING_BUDGET),
        "0 = unbounded");
    ConfigValueException e =
        assertThrows(
            ConfigValueException.class, () -> conf(Settings.PLANNING_FALLBACK.key(), "fastest"));
    assertEquals(
        "spark.wanshuffle.planning.fallback = 'fastest': unknown algorithm; known: "
            + "greedy, "
            + String.join(", ", ALGS),
        e.getMessage());
    e =
        assertThrows(
            ConfigValueException.class, () -> conf(Settings.PLANNING_FALLBACK.key(), " Exact"));
    assertTrue(
        e.getMessage().startsWith("spark.wanshuffle.planning.fallback = ' Exact': "),
        e.getMessage());
    e = assertThrows(ConfigValueException.class, () -> conf(Settings.ALGORITHM.key(), "OGGPx"));
    assertTrue(
        e.getMessage().startsWith("spark.wanshuffle.algorithm = 'OGGPx': unknown algorithm"),
        e.getMessage());
    e =
        assertThrows(
            ConfigValueException.class, () -> conf(Settings.PLANNING_BUDGET.key(), "soon"));
    assertTrue(
        e.getMessage().startsWith("spark.wanshuffle.planning.budget = 'soon'"), e.getMessage());
  }

  @Test
  void stepHandoverIsPredictedByDefaultAndValidated() {
    assertTrue(conf().get(Settings.STEP_HANDOVER).equals(Settings.PREDICTED));
    assertFalse(
        conf(Settings.STEP_HANDOVER.key(), "Arrival")
            .get(Settings.STEP_HANDOVER)
            .equals(Settings.PREDICTED));
    assertTrue(
        conf().get(Settings.STEP_PROGRESS), "blocks of predicted steps are streamed by default");
    assertFalse(conf(Settings.STEP_PROGRESS.key(), "false").get(Settings.STEP_PROGRESS));
    assertEquals(
        "spark.wanshuffle.step.progress = 'maybe': expected true or false",
        assertThrows(ConfigValueException.class, () -> conf(Settings.STEP_PROGRESS.key(), "maybe"))
            .getMessage());
    assertEquals(
        "spark.wanshuffle.step.progress = ' Maybe ': expected true or false",
        assertThrows(
                ConfigValueException.class, () -> conf(Settings.STEP_PROGRESS.key(), " Maybe "))
            .getMessage(),
        "the value as given, not as compared");
    ConfigValueException e =
        assertThrows(ConfigValueException.class, () -> conf(Settings.STEP_HANDOVER.key(), "early"));
    assertEquals(
        "spark.wanshuffle.step.handover = 'early': expected predicted or arrival", e.getMessage());
  }

  @Test
  void aReadIsGatedWhenItsBytesLastAtLeastFourTimesTheSetupOfItsSteps() {
    // start values here: 1 gbit/s backbone, 100 Mbit/s NICs: base speed 12.5 MB/s, k = 10, δ = 1,
    // β = 50 ms
    WanShuffleConf c = conf();
    assertTrue(c.get(Settings.GATE_MIN_BYTES).is(Settings.AUTO));
    long perStep = 4 * 12_500_000L / 20; // 4 x β x b
    assertEquals(perStep, c.gateMinBytes(1, "h1"));
    assertEquals(
        3 * perStep, c.gateMinBytes(3, "h1"), "1-port receiver: a read from 3 hosts takes 3 steps");
    assertEquals(perStep, c.gateMinBytes(0, "h1"), "at least one step");
    // a receiver with 2 ports (δ = 2) takes two of its sources per step
    WanShuffleConf fast = conf(Settings.NIC_RATES.key(), "h2=200mbit");
    assertEquals(2 * perStep, fast.gateMinBytes(3, "h2"));
    assertEquals(3 * perStep, fast.gateMinBytes(3, "h1"));
    // β scales it: a WAN's set-up delay of 130 ms
    assertEquals(
        3 * 4 * 12_500_000L * 13 / 100, conf(Settings.BETA.key(), "130ms").gateMinBytes(3, "h1"));
    assertEquals(perStep, conf(Settings.GATE_MIN_BYTES.key(), " AUTO ").gateMinBytes(1, "h1"));
    // a size applies to every read
    assertEquals(
        0, conf(Settings.GATE_MIN_BYTES.key(), "0").gateMinBytes(3, "h1"), "0 gates every read");
    assertFalse(
        conf(Settings.GATE_MIN_BYTES.key(), "0").get(Settings.GATE_MIN_BYTES).is(Settings.AUTO));
    assertEquals(4L << 20, conf(Settings.GATE_MIN_BYTES.key(), "4m").gateMinBytes(1, "h1"));
    assertEquals(512, conf(Settings.GATE_MIN_BYTES.key(), "512b").gateMinBytes(5, "h1"));
    assertTrue(
        c.toString().contains("gate min bytes=auto (" + perStep + " B per step)"), c.toString());
    for (String bad : List.of("lots", "-1")) {
      assertEquals(
          "spark.wanshuffle.gate.minBytes = '"
              + bad
              + "': expected a size of at least 0 such as 0, 512k, 4m (bytes)",
          assertThrows(ConfigValueException.class, () -> conf(Settings.GATE_MIN_BYTES.key(), bad))
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
            Settings.BACKBONE_RATE.key(),
            "800mbit",
            Settings.K.key(),
            "4",
            Settings.DELTA.key(),
            "2",
            Settings.FLOW_RATE_CAP.key(),
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
  void eachSettingIsReadWithOneTypedCall() {
    WanShuffleConf c =
        conf(
            Settings.GATHER_WINDOW.key(),
            "1s",
            Settings.DELTA.key(),
            " 2 ",
            Settings.GATE_MARGIN.key(),
            "0.1",
            Settings.NIC_RATES.key(),
            "a=1gbit");
    assertEquals(1000L, c.get(Settings.GATHER_WINDOW), "times in ms");
    assertEquals(Optional.of(2), c.get(Settings.DELTA));
    assertEquals(" 2 ", c.text(Settings.DELTA), "the text as given, for messages");
    assertEquals(Optional.of(0.1), c.get(Settings.GATE_MARGIN));
    assertEquals(Map.of("a", 125_000_000L), c.get(Settings.NIC_RATES));
    WanShuffleConf d = conf();
    assertEquals(200L, d.get(Settings.GATHER_WINDOW), "the default");
    assertEquals(Optional.empty(), d.get(Settings.DELTA), "no default: empty");
    assertEquals("", d.text(Settings.DELTA));
    assertEquals(Optional.empty(), d.get(Settings.GATE_MARGIN), "off");
    assertEquals(Optional.empty(), d.get(Settings.TOPOLOGY_FILE));
    assertEquals(List.of(), d.get(CaptureSettings.LISTENERS));
  }

  @Test
  void theAlgorithmReadsAsTheOneTheRegistryRuns() {
    assertEquals("oggp", conf(Settings.ALGORITHM.key(), " OGGP ").get(Settings.ALGORITHM));
    assertEquals(
        "oggp",
        WanShuffleConf.from(new SparkConf(false), ALGS).get(Settings.ALGORITHM),
        "unset, without auto in the registry");
    assertEquals(
        "auto",
        WanShuffleConf.from(new SparkConf(false), Set.of("auto", "oggp")).get(Settings.ALGORITHM));
  }

  @Test
  void aSettingNotDeclaredInSettingsIsRefused() {
    ConfigEntry<Long> stray =
        ConfigEntry.builder("spark.wanshuffle.test.stray", Times.atLeast(0))
            .section(Section.STEPS)
            .defaultValue("1s")
            .doc("Not declared in Settings.")
            .build();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> conf().get(stray));
    assertTrue(e.getMessage().contains("spark.wanshuffle.test.stray"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> conf().text(stray));
  }

  @Test
  void noneTurnsGatingOff() {
    assertFalse(conf(Settings.ALGORITHM.key(), "NONE").gated());
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
            () -> conf(Settings.BACKBONE_RATE.key(), "100", Settings.K.key(), "1000"));
    assertTrue(
        e.getMessage().contains("more flows than the backbone's 100 bytes/s"), e.getMessage());
    assertEquals(10, conf(Settings.BACKBONE_RATE.key(), "100", Settings.K.key(), "10").baseSpeed());
    // a bare number is milliseconds; 0 stays 0 (unbounded budget, no gather window); 1999us is 1 ms
    assertEquals(30, conf(Settings.ASK_TIMEOUT.key(), "30").get(Settings.ASK_TIMEOUT));
    assertEquals(0, conf(Settings.PLANNING_BUDGET.key(), "0").get(Settings.PLANNING_BUDGET));
    assertEquals(0, conf(Settings.GATHER_WINDOW.key(), "0ms").get(Settings.GATHER_WINDOW));
    assertEquals(1, conf(Settings.GATHER_WINDOW.key(), "1999us").get(Settings.GATHER_WINDOW));
    assertEquals(
        Times.MAX_MS, conf(Settings.MAX_GRANT_WAIT.key(), "365d").get(Settings.MAX_GRANT_WAIT));
  }

  /** Rates without a sizeable common divisor: the message gives the rates and the way out, once. */
  @Test
  void ratesGivingTooManyFlowsNameTheRatesAndTheWayOut() {
    ConfigValueException e =
        assertThrows(
            ConfigValueException.class,
            () -> conf(Settings.BACKBONE_RATE.key(), "200mbit", Settings.NIC_RATE.key(), "7"));
    assertEquals(
        "spark.wanshuffle.backbone.rate = '200mbit': rates give k = 25000000 flows of the base speed 1 B/s"
            + " (their greatest common divisor), more than 1000000: round the rates (backbone 25000000 B/s, NICs [7]"
            + " B/s from spark.wanshuffle.nic.rate and spark.wanshuffle.nic.rates), or set spark.wanshuffle.k directly",
        e.getMessage());
  }

  @Test
  void unknownAlgorithmListsTheKnownOnes() {
    ConfigValueException e =
        assertThrows(ConfigValueException.class, () -> conf(Settings.ALGORITHM.key(), "fastest"));
    assertTrue(e.getMessage().contains("none"), e.getMessage());
    assertTrue(e.getMessage().contains("oggp"), e.getMessage());
  }

  @Test
  void betaAndKAcceptAuto() {
    WanShuffleConf fixed = conf(Settings.BETA.key(), "20ms", Settings.K.key(), "4");
    assertEquals(0.02, fixed.betaSeconds(), 1e-12);
    assertFalse(fixed.betaAuto());
    assertFalse(fixed.get(Settings.K).is(Settings.AUTO));
    assertEquals(4, fixed.k());
    WanShuffleConf auto = conf(Settings.BETA.key(), " AUTO ", Settings.K.key(), "auto");
    assertTrue(auto.betaAuto());
    assertEquals(WanShuffleConf.AUTO_BETA_START_SECONDS, auto.betaSeconds(), 1e-12);
    assertTrue(auto.get(Settings.K).is(Settings.AUTO));
    WanShuffleConf unset = conf();
    assertTrue(
        unset.betaAuto() && unset.get(Settings.K).is(Settings.AUTO),
        "auto is the default of beta and k");
    assertEquals(unset.k(), auto.k(), "auto starts from the base-speed rule");
    assertEquals(unset.baseSpeed(), auto.baseSpeed());
  }

  @Test
  void badBetaOrKStopsStartUpNamingTheKey() {
    for (String[] kv :
        new String[][] {
          {Settings.BETA.key(), "-1"},
          {Settings.BETA.key(), "autox"},
          {Settings.K.key(), "auto5"},
          {Settings.K.key(), "0"},
          {Settings.K.key(), "-3"},
          {Settings.BACKBONE_RATE.key(), "autox"},
          {Settings.NIC_RATE.key(), "0"}
        }) {
      ConfigValueException e = assertThrows(ConfigValueException.class, () -> conf(kv));
      assertTrue(e.getMessage().startsWith(kv[0] + " = '" + kv[1] + "'"), e.getMessage());
    }
  }

  @Test
  void ratesAcceptAutoAndStartConservatively() {
    WanShuffleConf nic =
        conf(Settings.NIC_RATE.key(), "auto", Settings.BACKBONE_RATE.key(), "200mbit");
    assertTrue(
        nic.get(Settings.NIC_RATE).is(Settings.AUTO)
            && !nic.get(Settings.BACKBONE_RATE).is(Settings.AUTO)
            && nic.platformAuto());
    assertEquals(12_500_000L, nic.nicRate("any"), "starts at 100 Mbit/s");
    assertEquals(2, nic.k(), "gcd(200 mbit, 100 mbit) = 100 mbit");
    WanShuffleConf both =
        conf(
            Settings.NIC_RATE.key(),
            "auto",
            Settings.NIC_RATES.key(),
            "b7=10mbit",
            Settings.BACKBONE_RATE.key(),
            "Auto");
    assertTrue(both.get(Settings.BACKBONE_RATE).is(Settings.AUTO));
    assertEquals(12_500_000L, both.backboneRate(), "10 x the slowest NIC");
    assertEquals(10, both.k());
    assertFalse(
        conf(Settings.BACKBONE_RATE.key(), "auto", Settings.K.key(), "4").platformAuto(),
        "a number for k is kept");
    assertTrue(conf(Settings.K.key(), "auto").platformAuto());
    assertTrue(conf().platformAuto(), "nothing typed: the rates are measured");
    assertFalse(
        conf(Settings.BACKBONE_RATE.key(), "200mbit", Settings.NIC_RATE.key(), "100mbit")
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
    assertTrue(
        none.betaAuto()
            && none.get(Settings.K).is(Settings.AUTO)
            && none.get(Settings.BACKBONE_RATE).is(Settings.AUTO)
            && none.get(Settings.NIC_RATE).is(Settings.AUTO));
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
        conf(Settings.BACKBONE_RATE.key(), "200mbit", Settings.NIC_RATE.key(), "100mbit");
    assertTrue(
        both.get(Settings.K).is(Settings.AUTO)
            && !both.get(Settings.BACKBONE_RATE).is(Settings.AUTO)
            && !both.get(Settings.NIC_RATE).is(Settings.AUTO));
    assertFalse(both.platformAuto(), "nothing left to measure: k = 2 from the rates");
    assertEquals(2, both.k());
    assertEquals(12_500_000L, both.baseSpeed());
    WanShuffleConf nic = conf(Settings.NIC_RATE.key(), "100mbit");
    assertTrue(
        nic.get(Settings.BACKBONE_RATE).is(Settings.AUTO)
            && !nic.get(Settings.NIC_RATE).is(Settings.AUTO)
            && nic.platformAuto());
    assertEquals(10, nic.k(), "the backbone starts at 10 x the 100 mbit NIC");
    assertEquals(12_500_000L, nic.baseSpeed(), "the start base speed follows the NIC set");
    WanShuffleConf backbone = conf(Settings.BACKBONE_RATE.key(), "200mbit");
    assertTrue(
        !backbone.get(Settings.BACKBONE_RATE).is(Settings.AUTO)
            && backbone.get(Settings.NIC_RATE).is(Settings.AUTO)
            && backbone.platformAuto());
    assertEquals(2, backbone.k(), "gcd(200 mbit, the 100 mbit start) = 100 mbit: k = 2");
    WanShuffleConf k = conf(Settings.K.key(), "3");
    assertFalse(
        k.get(Settings.K).is(Settings.AUTO) || k.platformAuto(),
        "a number for k is never replaced");
    assertEquals(3, k.k());
  }
}
