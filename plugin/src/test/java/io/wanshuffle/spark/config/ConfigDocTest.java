package io.wanshuffle.spark.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/configuration.md} agrees with the declarations in {@link Settings}: keys, defaults,
 * types and texts. Run with {@code -Dwanshuffle.writeConfigDoc=true} to rewrite its tables from the
 * declarations instead of checking them.
 */
class ConfigDocTest {
  private static final Path DOC = Path.of("../docs/configuration.md");

  /** The command that regenerates the document's tables (from the repository root). */
  static final String REGENERATE =
      "mvn -B -ntp -q -pl plugin -am test -Dtest=ConfigDocTest"
          + " -Dsurefire.failIfNoSpecifiedTests=false -Dwanshuffle.writeConfigDoc=true";

  @Test
  void theDocumentsTablesAreTheDeclarations() throws IOException {
    String doc = Files.readString(DOC);
    String rendered = ConfigTables.render(doc);
    if (Boolean.getBoolean("wanshuffle.writeConfigDoc")) {
      Files.writeString(DOC, rendered);
      return;
    }
    String[] want = rendered.split("\n", -1);
    String[] have = doc.split("\n", -1);
    for (int i = 0; i < Math.max(want.length, have.length); i++) {
      String w = i < want.length ? want[i] : "(end of file)";
      String h = i < have.length ? have[i] : "(end of file)";
      assertEquals(
          w,
          h,
          "docs/configuration.md line "
              + (i + 1)
              + " disagrees with io.wanshuffle.spark.config.Settings; regenerate its tables with: "
              + REGENERATE);
    }
  }

  @Test
  void aChangedDefaultInTheDocumentIsCaught() throws IOException {
    String doc = Files.readString(DOC);
    String row = "| `" + Settings.STEP_MIN_DEADLINE.key() + "` | `5s` |";
    assertTrue(doc.contains(row), "the minimum deadline's row with its default");
    String stale = doc.replace(row, "| `" + Settings.STEP_MIN_DEADLINE.key() + "` | `4s` |");
    assertNotEquals(stale, ConfigTables.render(stale));
    assertEquals(
        ConfigTables.render(doc), ConfigTables.render(stale), "rendering restores the default");
  }

  @Test
  void everySettingHasOneRowAndExperimentalOnesOnlyInTheirTable() {
    String doc = ConfigTables.render(tablesOnly());
    for (ConfigEntry<?> e : Settings.all()) {
      String row = "| `" + e.key() + "` |";
      int at = doc.indexOf(row);
      assertTrue(at >= 0, e.key());
      assertEquals(-1, doc.indexOf(row, at + 1), e.key() + " has one row");
      int experimental = doc.indexOf(ConfigTables.begin(ConfigTables.EXPERIMENTAL));
      assertEquals(e.experimental().isPresent(), at > experimental, e.key());
    }
    assertTrue(
        ConfigTables.experimentalTable().contains(Settings.STEP_MODE.experimental().orElseThrow()));
    assertFalse(ConfigTables.table(Section.SCHEDULING).contains(Settings.FLOW_RATE_CAP.key()));
    assertTrue(
        ConfigTables.table(Section.SCHEDULING)
            .contains("| `" + Settings.DELTA.key() + "` | derived |"));
    assertTrue(
        ConfigTables.table(Section.SCHEDULING).contains("| `" + Settings.K.key() + "` | `auto` |"));
    assertTrue(
        ConfigTables.table(Section.SCHEDULING)
            .contains("| `" + Settings.NIC_RATES.key() + "` | empty |"));
    assertTrue(
        ConfigTables.table(Section.CAPTURE)
            .contains("| `" + CaptureSettings.CAPTURE_DIR.key() + "` | unset |"));
  }

  @Test
  void missingOrRepeatedMarkersAreRefused() {
    String ok = tablesOnly();
    String scheduling = ConfigTables.begin(Section.SCHEDULING.id());
    assertThrows(
        IllegalArgumentException.class, () -> ConfigTables.render(ok.replace(scheduling, "")));
    assertThrows(
        IllegalArgumentException.class,
        () -> ConfigTables.render(ok + scheduling + "\n" + ConfigTables.end("scheduling") + "\n"));
  }

  @Test
  void aPipeInATextStaysInItsCell() {
    for (ConfigEntry<?> e : Settings.all()) {
      assertFalse(e.doc().contains("\n"), e.key() + "'s doc is one line");
    }
    String table = ConfigTables.table(Section.SCHEDULING);
    for (String line : table.split("\n")) {
      assertEquals(5, line.replace("\\|", "").chars().filter(c -> c == '|').count(), line);
    }
  }

  /** A document of nothing but the markers, in order. */
  private static String tablesOnly() {
    StringBuilder b = new StringBuilder();
    for (Section s : Section.values()) {
      b.append(ConfigTables.begin(s.id()))
          .append('\n')
          .append(ConfigTables.end(s.id()))
          .append('\n');
    }
    b.append(ConfigTables.begin(ConfigTables.EXPERIMENTAL))
        .append('\n')
        .append(ConfigTables.end(ConfigTables.EXPERIMENTAL))
        .append('\n');
    return b.toString();
  }
}
