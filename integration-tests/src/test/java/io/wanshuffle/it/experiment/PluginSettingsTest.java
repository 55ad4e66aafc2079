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
            "spark.plugins",
            "spark.wanshuffle.algorithm",
            "spark.wanshuffle.backbone.rate",
            "spark.wanshuffle.nic.rate"),
        List.copyOf(c.keySet()));
    assertEquals(PluginSettings.WAN_SHUFFLE_MANAGER, c.get("spark.shuffle.manager"));
    assertEquals(PluginSettings.WAN_SHUFFLE_PLUGIN, c.get("spark.plugins"));
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

  @Test
  void aRackBlindVariantRunsItsAlgorithmAndTheOthersShipTheTopologyFile() {
    assertEquals("auto", PluginSettings.algorithm("auto-rackblind"));
    assertEquals("oggp", PluginSettings.algorithm("oggp"));
    assertFalse(PluginSettings.topologyAware("auto-rackblind"));
    assertTrue(PluginSettings.topologyAware("auto"));
    assertEquals(
        "auto",
        PluginSettings.of(TestbedSpec.defaults(), "auto-rackblind")
            .get("spark.wanshuffle.algorithm"));
    java.nio.file.Path dir = java.nio.file.Path.of("/tmp/run/spark");
    Map<String, String> t =
        PluginSettings.topology(dir.resolve("topology.table"), dir.resolve("topology.conf"));
    assertEquals(
        Map.of(
            "spark.files",
            "/tmp/run/spark/topology.table,/tmp/run/spark/topology.conf",
            "spark.wanshuffle.topology.file",
            "topology.conf"),
        t);
    // a user's own files stay shipped
    Map<String, String> conf =
        new java.util.LinkedHashMap<>(Map.of("spark.files", "/data/lookup.csv", "k", "1"));
    PluginSettings.putAll(conf, t);
    assertEquals(
        "/data/lookup.csv,/tmp/run/spark/topology.table,/tmp/run/spark/topology.conf",
        conf.get("spark.files"));
    assertEquals("topology.conf", conf.get("spark.wanshuffle.topology.file"));
    assertEquals("1", conf.get("k"));
    assertEquals(
        Map.of("spark.files", "x"),
        PluginSettings.putAll(new java.util.HashMap<>(), Map.of("spark.files", "x")));
  }
}
