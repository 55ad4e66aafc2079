package io.wanshuffle.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.wanshuffle.spark.config.ConfigValueException;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import io.wanshuffle.spark.topology.ClusterTopology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The topology is loaded at first use, not when the shuffle manager is created: Spark 3.5 creates
 * an executor's shuffle manager before its first task fetches the files shipped with {@code
 * --files}.
 */
class ShuffleNetworkTest {
  @TempDir Path dir;

  @Test
  void theTopologyLoadsAtFirstUseAndIsTriedAgainUntilItDoes() throws IOException {
    Path table = dir.resolve("racks.table");
    SparkConf c = new SparkConf(false).set(ClusterTopology.TABLE_KEY, table.toString());
    ShuffleNetwork n = new ShuffleNetwork(c, WanShuffleConf.from(c), false);
    ConfigValueException e = assertThrows(ConfigValueException.class, n::get);
    assertEquals(ClusterTopology.TABLE_KEY, e.key(), "not there yet: named by its key");
    Files.writeString(table, "10.0.0.1 /a/r1\n10.0.0.2 /b/r1\n");
    ShuffleNetwork.Loaded loaded = n.get();
    assertEquals(Optional.of("b"), loaded.topology().clusterOf("10.0.0.2"));
    assertSame(loaded, n.get(), "loaded once");
    n.close();
    assertThrows(IllegalStateException.class, n::get);
  }

  @Test
  void anExecutorsShuffleManagerStartsBeforeItsTopologyFileIsThere() {
    assertFalse(Files.exists(Path.of("topology-later.conf")), "not in the working directory");
    SparkConf c =
        new SparkConf(false)
            .set("spark.shuffle.manager", WanShuffleManager.class.getName())
            .set(Settings.TOPOLOGY_FILE.key(), "topology-later.conf");
    WanShuffleManager executor = new WanShuffleManager(c, false);
    executor.stop();
  }
}
