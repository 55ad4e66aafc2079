package io.wanshuffle.it.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.config.Settings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VariantTest {
  @Test
  void suffixesSetTheStepModeAndTheHandOver() {
    Variant v = new Variant("auto/barrier/arrival");
    assertEquals("auto", v.algorithm());
    assertEquals(List.of("barrier", "arrival"), v.suffixes());
    assertEquals(
        Map.of(
            Settings.STEP_MODE.key(),
            Settings.BARRIER,
            Settings.STEP_HANDOVER.key(),
            Settings.ARRIVAL),
        v.stepSettings());
    assertEquals("auto-barrier-arrival", v.fileName());
    assertFalse(v.isDefault());
  }

  @Test
  void aPlainNameIsItsAlgorithmWithTheDefaultSteps() {
    Variant v = new Variant("oggp");
    assertEquals("oggp", v.algorithm());
    assertEquals(List.of(), v.suffixes());
    assertEquals(Map.of(), v.stepSettings());
    assertTrue(new Variant("default").isDefault());
  }

  @Test
  void capacityFixesTheWindowsAndMeasuredLeavesTheRatesToThePlugin() {
    assertEquals(
        Map.of(Settings.WINDOW.key(), Settings.CAPACITY),
        new Variant("auto/capacity").stepSettings());
    Variant measured = new Variant("auto-rackblind/measured");
    assertTrue(measured.measured());
    assertEquals(
        Map.of(Settings.BACKBONE_RATE.key(), "auto", Settings.NIC_RATE.key(), "auto"),
        measured.stepSettings());
    assertEquals(null, measured.inconsistency());
    assertEquals("auto", measured.configuredReference(), "the topology file and its rates");
    assertEquals(
        "oggp/arrival", new Variant("oggp-rackblind/measured/arrival").configuredReference());
    assertEquals(null, new Variant("auto/capacity").configuredReference());
    assertFalse(new Variant("auto/capacity").measured());
  }

  @Test
  void adaptiveLetsTheWindowsMoveAndIsComparedWithTheFixedOnes() {
    Variant adaptive = new Variant("auto/adaptive");
    assertEquals(Map.of(Settings.WINDOW.key(), Settings.ADAPTIVE), adaptive.stepSettings());
    assertEquals("auto", adaptive.withFixedWindows(), "fixed windows are the plugin's default");
    assertEquals("auto/capacity", new Variant("auto").withFixedWindows());
    assertEquals(null, new Variant("auto/capacity").withFixedWindows());
  }

  @Test
  void variantNamesAreCheckedBeforeAnyRun() {
    List<String> algorithms = List.of("auto", "oggp");
    assertEquals(
        null,
        Variant.problem(
            List.of("default", "auto", "auto/capacity", "auto-rackblind/measured", "none"),
            algorithms));
    assertEquals(
        "none given; give default and/or wan-shuffle algorithms [auto, oggp]",
        Variant.problem(List.of(), algorithms));
    assertEquals(
        "'auto/fast': unknown suffix; the suffixes are [/barrier, /predicted, /arrival,"
            + " /capacity, /adaptive, /measured, /alone]",
        Variant.problem(List.of("default", "auto/fast"), algorithms));
    assertTrue(
        Variant.problem(List.of("auto/measured"), algorithms)
            .endsWith(
                "use auto-rackblind/measured (the topology table alone, every rate, k and β"
                    + " measured)"),
        "a topology-aware variant ships the file with its rates");
    assertEquals(
        "unknown [ogpp, ggp-rackblind]; give default and/or wan-shuffle algorithms [auto, oggp]",
        Variant.problem(List.of("default", "ogpp", "ggp-rackblind"), algorithms));
  }

  @Test
  void aloneRunsWithoutTheArbiterAndChangesNoPluginSetting() {
    Variant alone = new Variant("auto/alone");
    assertTrue(alone.alone());
    assertEquals("auto", alone.algorithm());
    assertEquals(Map.of(), alone.stepSettings());
    assertEquals("auto-alone", alone.fileName());
    assertEquals(null, Variant.problem(List.of("default", "auto/alone", "auto"), List.of("auto")));
    assertTrue(!new Variant("auto").alone());
  }
}
