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
}
