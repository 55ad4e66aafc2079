package io.wanshuffle.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class ConfigEntryTest {
  private static final ConfigEntry<Long> WAIT =
      ConfigEntry.builder("spark.wanshuffle.test.wait", Times.atLeast(1))
          .section(Section.STEPS)
          .defaultValue("5s")
          .doc("How long.")
          .build();

  private static final ConfigEntry<Optional<Integer>> FLOWS =
      ConfigEntry.builder("spark.wanshuffle.test.flows", FlowCounts.TYPE)
          .section(Section.SCHEDULING)
          .noDefault("derived")
          .doc("How many.")
          .experimental("Measured.")
          .build();

  private static final ConfigEntry<Optional<String>> DIR =
      ConfigEntry.builder("spark.wanshuffle.test.dir", Text.trimmed("path"))
          .section(Section.CAPTURE)
          .noDefault("unset")
          .blankIsUnset()
          .doc("Where.")
          .build();

  @Test
  void theValueSetElseTheDefault() {
    SparkConf c = new SparkConf(false);
    assertFalse(WAIT.isSet(c));
    assertEquals(5000, WAIT.get(c));
    assertEquals("5s", WAIT.text(c));
    c.set(WAIT.key(), " 250ms ");
    assertTrue(WAIT.isSet(c));
    assertEquals(250, WAIT.get(c));
    assertEquals(" 250ms ", WAIT.text(c), "as given");
  }

  @Test
  void aWrongValueNamesTheKeyAndTheValueAsGiven() {
    SparkConf c = new SparkConf(false).set(WAIT.key(), " later ");
    ConfigValueException e = assertThrows(ConfigValueException.class, () -> WAIT.get(c));
    assertEquals(WAIT.key(), e.key());
    assertEquals(" later ", e.value());
  }

  @Test
  void withoutADefaultAnUnsetSettingIsEmpty() {
    SparkConf c = new SparkConf(false);
    assertEquals(Optional.empty(), FLOWS.get(c));
    assertEquals("", FLOWS.text(c));
    assertEquals(Optional.of(3), FLOWS.get(c.set(FLOWS.key(), "3")));
    ConfigValueException e =
        assertThrows(ConfigValueException.class, () -> FLOWS.get(c.set(FLOWS.key(), "0")));
    assertEquals("0", e.value(), "an optional setting's wrong value is refused as any other");
  }

  @Test
  void blankCountsAsUnsetOnlyWhereDeclared() {
    SparkConf c = new SparkConf(false).set(DIR.key(), "  ").set(FLOWS.key(), "  ");
    assertFalse(DIR.isSet(c));
    assertEquals(Optional.empty(), DIR.get(c));
    assertTrue(FLOWS.isSet(c));
    assertThrows(ConfigValueException.class, () -> FLOWS.get(c));
  }

  @Test
  void theDeclarationIsWhatTheDocumentationShows() {
    assertEquals(Optional.of("5s"), WAIT.defaultText());
    assertEquals("", WAIT.unsetMeaning());
    assertEquals("time, at least 1 ms", WAIT.typeDescription());
    assertEquals(Section.STEPS, WAIT.section());
    assertEquals("How long.", WAIT.doc());
    assertEquals(Optional.empty(), WAIT.experimental());
    assertEquals(Optional.empty(), FLOWS.defaultText());
    assertEquals("derived", FLOWS.unsetMeaning());
    assertEquals(Optional.of("Measured."), FLOWS.experimental());
    assertEquals("spark.wanshuffle.test.wait", WAIT.toString());
  }

  @Test
  void anIncompleteDeclarationOrAnInvalidDefaultIsRefused() {
    assertThrows(
        IllegalStateException.class,
        () ->
            ConfigEntry.builder("x", Times.atLeast(1))
                .section(Section.STEPS)
                .defaultValue("1s")
                .build(),
        "no doc");
    assertThrows(
        IllegalStateException.class,
        () -> ConfigEntry.builder("x", Times.atLeast(1)).doc("d").defaultValue("1s").build(),
        "no section");
    assertThrows(
        IllegalStateException.class,
        () -> ConfigEntry.builder("x", Times.atLeast(1)).section(Section.STEPS).doc("d").build(),
        "neither a default nor what unset means");
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                ConfigEntry.builder("x", Times.atLeast(1))
                    .section(Section.STEPS)
                    .doc("d")
                    .defaultValue("0ms")
                    .build());
    assertTrue(e.getMessage().contains("must be at least 1 ms"), e.getMessage());
  }
}
