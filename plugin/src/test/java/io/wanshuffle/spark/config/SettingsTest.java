package io.wanshuffle.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class SettingsTest {
  @Test
  void everyDeclarationIsListedOnceUnderThePrefix() throws IllegalAccessException {
    List<ConfigEntry<?>> fields = new ArrayList<>();
    for (Field f : Settings.class.getDeclaredFields()) {
      if (f.getType() == ConfigEntry.class && Modifier.isStatic(f.getModifiers())) {
        fields.add((ConfigEntry<?>) f.get(null));
      }
    }
    assertEquals(fields, Settings.all(), "all() lists every declared setting, in order");
    Set<String> keys = new HashSet<>(Settings.keys());
    assertEquals(Settings.all().size(), keys.size(), "keys are unique");
    for (String k : keys) {
      assertTrue(k.startsWith(WanShuffleConf.PREFIX), k);
    }
  }

  @Test
  void everyKeyConstantHasADeclaration() throws IllegalAccessException {
    Set<String> keys = new HashSet<>(Settings.keys());
    for (Field f : WanShuffleConf.class.getDeclaredFields()) {
      if (f.getType() == String.class
          && Modifier.isPublic(f.getModifiers())
          && Modifier.isStatic(f.getModifiers())) {
        String v = (String) f.get(null);
        if (v.startsWith(WanShuffleConf.PREFIX) && !v.equals(WanShuffleConf.PREFIX)) {
          assertTrue(keys.contains(v), f.getName() + " = " + v + " is declared in Settings");
        }
      }
    }
  }

  @Test
  void everyDefaultIsValidAndEveryExperimentalSettingCitesAMeasurement() {
    SparkConf empty = new SparkConf(false);
    for (ConfigEntry<?> e : Settings.all()) {
      if (e.defaultText().isPresent()) {
        e.get(empty); // throws on an invalid default
      } else {
        assertFalse(e.unsetMeaning().isBlank(), e.key());
      }
      assertFalse(e.doc().isBlank(), e.key());
      e.experimental()
          .ifPresent(
              why ->
                  assertTrue(
                      why.contains("](benchmarks/")
                          || why.contains("](demo.md")
                          || why.contains("Not measured"),
                      e.key() + " cites its measurement: " + why));
    }
  }

  @Test
  void theExperimentalSettingsAreTheOnesThatLostOrWereNeverMeasured() {
    List<String> experimental =
        Settings.all().stream()
            .filter(e -> e.experimental().isPresent())
            .map(ConfigEntry::key)
            .toList();
    assertEquals(
        List.of(
            WanShuffleConf.FLOW_RATE_CAP,
            WanShuffleConf.STEP_MODE,
            WanShuffleConf.STEP_HANDOVER,
            WanShuffleConf.STEP_PROGRESS,
            WanShuffleConf.PLANNING_SHARE,
            WanShuffleConf.PLANNING_FALLBACK),
        experimental);
  }

  @Test
  void undeclaredKeysUnderThePrefixAreReportedSorted() {
    SparkConf c =
        new SparkConf(false)
            .set(WanShuffleConf.K, "2")
            .set("spark.wanshuffle.setp.mode", "barrier")
            .set("spark.wanshuffle.capture.dri", "/tmp")
            .set("spark.other.key", "1");
    assertEquals(
        List.of("spark.wanshuffle.capture.dri", "spark.wanshuffle.setp.mode"),
        Settings.undeclaredKeys(c));
    assertEquals(
        List.of(),
        Settings.undeclaredKeys(new SparkConf(false).set(WanShuffleConf.CAPTURE_DIR, "/x")));
  }
}
