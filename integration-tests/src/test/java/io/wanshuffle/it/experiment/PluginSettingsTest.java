package io.wanshuffle.it.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.net.TestbedSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginSettingsTest {
  @Test
  void theSettingsCarryTheTestbedsRatesAndTheCaptureListener() {
    Map<String, String> c = PluginSettings.of(TestbedSpec.defaults(), "oggp");
    assertEquals(
        List.of(
            "spark.wanshuffle.listeners",
            "spark.shuffle.manager",
            "spark.wanshuffle.algorithm",
            "spark.wanshuffle.backbone.rate",
            "spark.wanshuffle.nic.rate"),
        List.copyOf(c.keySet()));
    assertEquals(PluginSettings.WAN_SHUFFLE_MANAGER, c.get("spark.shuffle.manager"));
    assertEquals("200000000bit", c.get("spark.wanshuffle.backbone.rate"));
    assertEquals("100000000bit", c.get("spark.wanshuffle.nic.rate"));
    assertTrue(PluginSettings.capturing(c));
    assertFalse(PluginSettings.capturing(Map.of("spark.shuffle.manager", "sort")));
  }

  @Test
  void aValueThePluginRefusesIsRefusedBeforeAnyRunAndTheLastSettingWins() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                PluginSettings.check(
                    TestbedSpec.defaults(), "auto", Map.of("spark.wanshuffle.k", "0")));
    assertTrue(e.getMessage().contains("spark.wanshuffle.k"), e.getMessage());
    assertEquals(
        0.25,
        PluginSettings.check(
                TestbedSpec.defaults(),
                "auto",
                Map.of("spark.wanshuffle.beta", "1s"),
                Map.of("spark.wanshuffle.beta", "250ms"))
            .betaSeconds(),
        1e-9);
  }
}
