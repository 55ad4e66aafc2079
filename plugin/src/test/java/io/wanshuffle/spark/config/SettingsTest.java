package io.wanshuffle.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class SettingsTest {
  @Test
  void everyDeclarationIsListedOnceUnderThePrefix() throws IllegalAccessException {
    List<ConfigEntry<?>> fields = new ArrayList<>();
    for (Class<?> declaring :
        List.of(Settings.class, CaptureSettings.class, ArbiterSettings.class)) {
      for (Field f : declaring.getDeclaredFields()) {
        if (f.getType() == ConfigEntry.class && Modifier.isStatic(f.getModifiers())) {
          fields.add((ConfigEntry<?>) f.get(null));
        }
      }
    }
    assertEquals(fields, Settings.all(), "all() lists every declared setting, in order");
    Set<String> keys = new HashSet<>(Settings.keys());
    assertEquals(Settings.all().size(), keys.size(), "keys are unique");
    for (String k : keys) {
      assertTrue(k.startsWith(Settings.PREFIX), k);
    }
  }

  @Test
  void keysAreSpelledOnlyInTheirDeclarations() throws IOException {
    Pattern key = Pattern.compile("\"(" + Pattern.quote(Settings.PREFIX) + "[A-Za-z.]+)\"");
    List<String> elsewhere = new ArrayList<>();
    for (String module : List.of("plugin", "benchmarks", "integration-tests", "cli", "app")) {
      Path main = Path.of("..", module, "src", "main", "java");
      try (Stream<Path> files = Files.walk(main)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
          if (f.endsWith(Path.of("config", "Settings.java"))
              || f.endsWith(Path.of("config", "CaptureSettings.java"))
              || f.endsWith(Path.of("config", "ArbiterSettings.java"))) {
            continue;
          }
          Matcher m = key.matcher(Files.readString(f));
          while (m.find()) {
            elsewhere.add(f + ": " + m.group(1));
          }
        }
      }
    }
    assertEquals(
        List.of(),
        elsewhere,
        "a key is written once, in its declaration; read it as Settings.X or Settings.X.key()");
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
            Settings.FLOW_RATE_CAP.key(),
            Settings.STEP_MODE.key(),
            Settings.STEP_HANDOVER.key(),
            Settings.STEP_PROGRESS.key(),
            Settings.PLANNING_SHARE.key(),
            Settings.PLANNING_FALLBACK.key()),
        experimental);
  }

  @Test
  void undeclaredKeysUnderThePrefixAreReportedSorted() {
    SparkConf c =
        new SparkConf(false)
            .set(Settings.K.key(), "2")
            .set("spark.wanshuffle.setp.mode", "barrier")
            .set("spark.wanshuffle.capture.dri", "/tmp")
            .set("spark.other.key", "1");
    assertEquals(
        List.of("spark.wanshuffle.capture.dri", "spark.wanshuffle.setp.mode"),
        WanShuffleConf.undeclaredKeys(c));
    assertEquals(
        List.of(),
        WanShuffleConf.undeclaredKeys(
            new SparkConf(false).set(CaptureSettings.CAPTURE_DIR.key(), "/x")));
  }
}
