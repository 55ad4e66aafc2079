package io.wanshuffle.spark.compat;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

class LineCheckTest {
  @Test
  void theSameLineAndScalaPassWhateverThePatch() {
    assertDoesNotThrow(() -> LineCheck.check("3.5.8", "2.12.18", "3.5", "2.12"));
    assertDoesNotThrow(() -> LineCheck.check("3.5.1", "2.12.15", "3.5", "2.12"));
    assertDoesNotThrow(() -> LineCheck.check("4.1.0-SNAPSHOT", "2.13.17", "4.1", "2.13"));
  }

  @Test
  void anotherLineFailsNamingBothVersions() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> LineCheck.check("3.5.8", "2.13.8", "4.1", "2.13"));
    assertEquals(
        "wan-shuffle: this plugin jar is built for Spark 4.1 (Scala 2.13) but runs in Spark 3.5.8"
            + " (Scala 2.13.8): use wan-shuffle-spark-3.5_2.13-<version>.jar",
        e.getMessage());
  }

  @Test
  void anotherScalaVersionFailsToo() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> LineCheck.check("3.5.8", "2.13.8", "3.5", "2.12"));
    assertTrue(e.getMessage().contains("Spark 3.5 (Scala 2.12)"), e.getMessage());
    assertTrue(e.getMessage().contains("wan-shuffle-spark-3.5_2.13-"), e.getMessage());
  }

  @Test
  void majorMinorKeepsTheFirstTwoParts() {
    assertEquals("3.5", LineCheck.majorMinor("3.5.8"));
    assertEquals("4.1", LineCheck.majorMinor("4.1.0-SNAPSHOT"));
    assertEquals("4.2", LineCheck.majorMinor("4.2-preview"));
    assertEquals("2.13", LineCheck.majorMinor("2.13"));
    assertEquals("4", LineCheck.majorMinor("4"));
  }

  /** This module's adapter folders belong to the Spark it is compiled and tested against. */
  @Test
  void theRunningSparkIsThisJarsLine() {
    SparkConf conf = new SparkConf(false);
    assertSame(conf, LineCheck.checked(conf));
    assertEquals(java.util.Optional.empty(), LineCheck.mismatch());
    assertEquals(
        SparkLine.LINE, LineCheck.majorMinor(org.apache.spark.package$.MODULE$.SPARK_VERSION()));
    assertEquals(
        ScalaCollections.SCALA,
        LineCheck.majorMinor(scala.util.Properties$.MODULE$.versionNumberString()));
  }
}
