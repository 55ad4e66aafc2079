package io.wanshuffle.spark.arbiter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.config.ArbiterSettings;
import io.wanshuffle.spark.config.ConfigValueException;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackboneSharesTest {
  @Test
  void withoutAnEnsembleTheApplicationIsAloneWithTheWholeWindow() {
    SparkConf c = new SparkConf(false);
    BackboneShare s = BackboneShares.open(c, WanShuffleConf.from(c), "app-1");
    assertInstanceOf(Alone.class, s);
    s.publish(Map.of("l", new LinkDemand(10, 3)));
    assertEquals(7, s.allowed("l", 7));
    assertThrows(IllegalArgumentException.class, () -> s.allowed("l", -1));
    s.close();
  }

  @Test
  void theNamespaceFollowsTheTopologyFilesContent(@TempDir Path dir) throws Exception {
    Path one = dir.resolve("one.conf");
    Path same = dir.resolve("same.conf");
    Path other = dir.resolve("other.conf");
    Files.writeString(one, "backbone.rate = 100mbit\n");
    Files.writeString(same, "backbone.rate = 100mbit\n");
    Files.writeString(other, "backbone.rate = 200mbit\n");
    String ns = BackboneShares.namespace(conf(Settings.TOPOLOGY_FILE.key(), one));
    assertTrue(ns.matches("/wan-shuffle/[0-9a-f]{16}"), ns);
    assertEquals(ns, BackboneShares.namespace(conf(Settings.TOPOLOGY_FILE.key(), same)));
    assertNotEquals(ns, BackboneShares.namespace(conf(Settings.TOPOLOGY_FILE.key(), other)));
    assertEquals(
        BackboneShares.namespace("backbone.rate = 100mbit\n".getBytes(StandardCharsets.UTF_8)), ns);
    assertEquals(
        BackboneShares.namespace(Files.readAllBytes(other)),
        BackboneShares.namespace(conf("spark.hadoop.net.topology.table.file.name", other)),
        "without a topology file: the Hadoop table's");
  }

  @Test
  void withoutAFileToDeriveItFromTheNamespaceMustBeSet(@TempDir Path dir) {
    ConfigValueException e =
        assertThrows(
            ConfigValueException.class, () -> BackboneShares.namespace(new SparkConf(false)));
    assertTrue(e.getMessage().contains(ArbiterSettings.NAMESPACE.key()), e.getMessage());
    ConfigValueException missing =
        assertThrows(
            ConfigValueException.class,
            () -> BackboneShares.namespace(conf(Settings.TOPOLOGY_FILE.key(), dir.resolve("no"))));
    assertTrue(missing.getMessage().contains("cannot be read"), missing.getMessage());
  }

  private static SparkConf conf(String key, Path file) {
    return new SparkConf(false).set(key, file.toAbsolutePath().toString());
  }
}
