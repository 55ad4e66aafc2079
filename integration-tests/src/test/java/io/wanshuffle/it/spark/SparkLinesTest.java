package io.wanshuffle.it.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SparkLinesTest {
  @TempDir Path dir;

  @Test
  void aPatchVersionRunsWithItsLinesJarOnAHomeOfThatVersion() {
    SparkLines.Choice c = SparkLines.resolve("3.5.7");
    assertEquals("3.5_2.12", c.line().name(), "Spark 3.5 is Scala 2.12 unless asked");
    assertEquals("3.5.7", c.version());
    assertEquals("3.5.7_2.12", c.name());
    assertEquals("wan-shuffle-spark-3.5_2.12-", c.line().jarPrefix());

    c = SparkLines.resolve("3.5.8_2.13");
    assertEquals("3.5_2.13", c.line().name());
    assertEquals("3.5.8", c.version());

    c = SparkLines.resolve("4.2");
    assertEquals("4.2_2.13", c.line().name());
    assertEquals("4.2.0", c.version(), "no patch: the line's own version");

    c = SparkLines.resolve(" 4.1.3 ");
    assertTrue(c.line().primary());
    assertEquals("spark-lines/spark-4.0_2.13", SparkLines.resolve("4.0.2").line().module());
  }

  @Test
  void unsupportedVersionsNameTheSupportedLines() {
    for (String v : List.of("3.4.1", "4.1_2.12", "5.0.0", "four", "")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> SparkLines.resolve(v));
      assertTrue(
          e.getMessage()
              .endsWith(
                  "supported lines: 3.5 (Scala 2.12, 2.13), 4.0 (Scala 2.13), 4.1 (Scala 2.13),"
                      + " 4.2 (Scala 2.13)"),
          e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> SparkLines.line("3.4_2.12"));
    assertEquals("4.0.1", SparkLines.line("4.0_2.13").version());
  }

  @Test
  void everyNonPrimaryLineHasItsModuleAndTheRootIsFound() {
    Path root = SparkLines.root();
    assertTrue(
        Files.isRegularFile(root.resolve("spark-lines").resolve("pom.xml")), root.toString());
    for (SparkLines.Line l : SparkLines.SUPPORTED) {
      assertTrue(Files.isRegularFile(root.resolve(l.module()).resolve("pom.xml")), l.toString());
      if (!l.primary()) {
        assertEquals("spark-lines/spark-" + l.name(), l.module());
      }
    }
    assertEquals(1, SparkLines.SUPPORTED.stream().filter(SparkLines.Line::primary).count());
  }

  @Test
  void aHomeOfLinksKnowsItsScalaVersion() throws Exception {
    Path jars = Files.createDirectories(dir.resolve("repo"));
    Path core = Files.writeString(jars.resolve("spark-core_2.12-3.5.8.jar"), "");
    Path other = Files.writeString(jars.resolve("scala-library-2.12.18.jar"), "");
    SparkHome h = SparkHome.linkJars(dir.resolve("home"), List.of(core, other));
    assertEquals("2.12", h.scalaVersion());
    assertEquals("3.5.8", h.sparkVersion());
    assertTrue(Files.isSymbolicLink(dir.resolve("home/jars/spark-core_2.12-3.5.8.jar")));
    assertEquals(dir.resolve("home").toAbsolutePath() + "/jars/*", h.classPath());
    assertThrows(
        IllegalStateException.class,
        () -> SparkHome.linkJars(dir.resolve("empty"), List.of(other)),
        "no spark-core jar");
  }
}
