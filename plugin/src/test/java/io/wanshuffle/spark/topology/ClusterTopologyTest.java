package io.wanshuffle.spark.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.spark.config.ConfigValueException;
import io.wanshuffle.spark.config.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterTopologyTest {
  @TempDir Path dir;

  private ClusterTopology table(String content) throws IOException {
    Path f = dir.resolve("topology.table");
    Files.writeString(f, content);
    return ClusterTopology.from(new SparkConf(false).set(ClusterTopology.TABLE_KEY, f.toString()));
  }

  @Test
  void tableMappingGivesClusterFromTheFirstPathComponent() throws IOException {
    ClusterTopology t =
        table(
            "127.0.1.1 /siteA/rack1\n127.0.1.2 /siteA/rack2\n"
                + "127.0.2.1 /siteB/rack1\nnode9 /siteB\n");
    assertEquals(Optional.of("/siteA/rack1"), t.pathOf("127.0.1.1"));
    assertEquals(Optional.of("siteA"), t.clusterOf("127.0.1.2"));
    assertEquals(Optional.of("siteB"), t.clusterOf("node9"));
    assertTrue(t.sameCluster("127.0.1.1", "127.0.1.2"), "racks of one cluster");
    assertFalse(t.sameCluster("127.0.1.1", "127.0.2.1"));
    assertFalse(t.sameCluster("node9", "127.0.1.1"));
  }

  @Test
  void unknownHostsAreSameClusterWithEveryone() throws IOException {
    ClusterTopology t = table("127.0.1.1 /siteA/rack1\n127.0.2.1 /siteB/rack1\n");
    assertEquals(Optional.empty(), t.clusterOf("10.9.9.9"));
    assertTrue(t.sameCluster("10.9.9.9", "127.0.1.1"));
    assertTrue(t.sameCluster("127.0.2.1", "10.9.9.9"));
  }

  @Test
  void withoutAnyTopologyKeyTheTopologySaysItIsNotConfiguredAndKnowsNoHost() throws IOException {
    ClusterTopology none = ClusterTopology.from(new SparkConf(false));
    assertFalse(none.isConfigured());
    assertEquals(Optional.empty(), none.clusterOf("127.0.1.1"));
    assertTrue(none.sameCluster("127.0.1.1", "127.0.2.1"), "nothing is gated");
    assertTrue(table("127.0.1.1 /siteA/rack1\n").isConfigured());
  }

  /** A per-host NIC rate for a host the topology does not know would never apply: a typo. */
  @Test
  void aNicRateForAHostOutsideTheTopologyIsRefusedByName() throws IOException {
    ClusterTopology t = table("127.0.1.1 /siteA/rack1\nnode7 /siteB/rack1\n");
    t.checkNicRateHosts(
        io.wanshuffle.spark.config.WanShuffleConf.from(
            new SparkConf(false)
                .set("spark.wanshuffle.nic.rates", "node7=10gbit, 127.0.1.1=2gbit")));
    ConfigValueException e =
        assertThrows(
            ConfigValueException.class,
            () ->
                t.checkNicRateHosts(
                    io.wanshuffle.spark.config.WanShuffleConf.from(
                        new SparkConf(false)
                            .set("spark.wanshuffle.nic.rates", "node7=10gbit,nod8=10gbit"))));
    assertEquals("spark.wanshuffle.nic.rates", e.key());
    assertEquals(
        "spark.wanshuffle.nic.rates = 'node7=10gbit,nod8=10gbit': host nod8 is not in the topology"
            + " (topology table "
            + dir.resolve("topology.table")
            + "), so its rate would never apply; list it in"
            + " the topology or correct its name",
        e.getMessage());
  }

  @Test
  void missingTableFileFailsFastNamingTheKey() {
    String missing = dir.resolve("nope.table").toString();
    ConfigValueException e =
        assertThrows(
            ConfigValueException.class,
            () ->
                ClusterTopology.from(new SparkConf(false).set(ClusterTopology.TABLE_KEY, missing)));
    assertEquals("spark.hadoop.net.topology.table.file.name", e.key());
    assertTrue(e.getMessage().contains(missing));
  }

  @Test
  void aMissingRelativeTableNamesTheFolderItWasLookedFor() {
    ConfigValueException e =
        assertThrows(
            ConfigValueException.class,
            () ->
                ClusterTopology.from(
                    new SparkConf(false).set(ClusterTopology.TABLE_KEY, "conf/no-such.table")));
    assertTrue(e.getMessage().contains("conf/no-such.table"), e.getMessage());
    assertTrue(
        e.getMessage().contains("working directory, here " + Path.of("").toAbsolutePath()),
        e.getMessage());
    assertTrue(e.getMessage().contains("--files"), e.getMessage());
  }

  @Test
  void theShippedExampleTableIsValid() {
    Path example = Path.of("..", "conf", "topology.table");
    ClusterTopology t =
        ClusterTopology.from(
            new SparkConf(false).set(ClusterTopology.TABLE_KEY, example.toString()));
    assertEquals(Optional.of("siteA"), t.clusterOf("127.0.1.3"));
    assertEquals(Optional.of("siteB"), t.clusterOf("127.0.2.1"));
  }

  @Test
  void malformedTableLineFailsFastNamingFileAndLine() {
    ConfigValueException e =
        assertThrows(
            ConfigValueException.class,
            () -> table("# sites\n127.0.1.1 /siteA/rack1\n127.0.2.1 siteB\n"));
    assertEquals(ClusterTopology.TABLE_KEY, e.key());
    assertTrue(e.getMessage().contains("topology.table:3: host 127.0.2.1"), e.getMessage());
  }

  @Test
  void nonExecutableScriptFailsFast() throws IOException {
    Path s = Files.writeString(dir.resolve("topo.sh"), "#!/bin/sh\necho /a\n");
    ConfigValueException e =
        assertThrows(
            ConfigValueException.class,
            () ->
                ClusterTopology.from(
                    new SparkConf(false).set(ClusterTopology.SCRIPT_KEY, s.toString())));
    assertEquals(ClusterTopology.SCRIPT_KEY, e.key());
  }

  @Test
  void scriptMappingIsUsedWhenConfigured() throws IOException {
    Path s = dir.resolve("topo.sh");
    Files.writeString(
        s,
        "#!/bin/sh\nfor h in \"$@\"; do case $h in 127.0.1.*) echo /east/r1;;"
            + " *) echo /west/r1;; esac; done\n");
    assertTrue(s.toFile().setExecutable(true));
    ClusterTopology t =
        ClusterTopology.from(new SparkConf(false).set(ClusterTopology.SCRIPT_KEY, s.toString()));
    assertEquals(Optional.of("east"), t.clusterOf("127.0.1.7"));
    assertEquals(Optional.of("west"), t.clusterOf("127.0.2.7"));
  }

  @Test
  void noTopologyMeansEverythingIsOneCluster() {
    ClusterTopology t = ClusterTopology.from(new SparkConf(false));
    assertTrue(t.sameCluster("a", "b"));
  }

  @Test
  void yarnClientDriverReadsTheOriginalOfADistributedFile(@TempDir Path dir) throws IOException {
    Path table = Files.writeString(dir.resolve("topology.table"), "10.0.0.1 /a/r1\n");
    Path other = Files.writeString(dir.resolve("other.txt"), "x");
    String abs = table.toAbsolutePath().toString();
    // as spark-submit --files writes spark.yarn.dist.files: URIs, comma-separated
    String dist = other.toUri() + "," + table.toUri();
    assertEquals(Optional.of(abs), ClusterTopology.yarnOriginal("topology.table", dist));
    // plain paths and an alias
    assertEquals(
        Optional.of(abs), ClusterTopology.yarnOriginal("t.tbl", other + " , " + table + "#t.tbl"));
    // the alias hides the file's own name
    assertEquals(
        Optional.empty(), ClusterTopology.yarnOriginal("topology.table", table + "#t.tbl"));
    // a file that is not local, or gone, is not read
    assertEquals(
        Optional.empty(),
        ClusterTopology.yarnOriginal("topology.table", "hdfs://nn:8020/conf/topology.table"));
    assertEquals(
        Optional.empty(),
        ClusterTopology.yarnOriginal("topology.table", dir.resolve("gone/topology.table") + ""));
    assertEquals(Optional.empty(), ClusterTopology.yarnOriginal("topology.table", ""));
  }

  /**
   * A client-mode driver on YARN, where {@code --files} becomes {@code spark.yarn.dist.files}: the
   * table and the topology file named by their file names load from the originals, before Spark has
   * an environment (Spark 3.5 creates the shuffle manager first) as after.
   */
  @Test
  void aNameFromSparkYarnDistFilesLoadsTheOriginalOnTheDriver(@TempDir Path dir)
      throws IOException {
    assertFalse(Files.exists(Path.of("racks-yarn.table")), "not in the working directory");
    Path table = Files.writeString(dir.resolve("racks-yarn.table"), "10.0.0.1 /a/r1\n");
    ClusterTopology t =
        ClusterTopology.from(
            new SparkConf(false)
                .set(ClusterTopology.TABLE_KEY, "racks-yarn.table")
                .set("spark.yarn.dist.files", table.toUri().toString()));
    assertEquals(Optional.of("a"), t.clusterOf("10.0.0.1"));
    Path conf =
        Files.writeString(
            dir.resolve("topology-yarn.conf"),
            "mapping.table = racks-yarn.table\nnic.rate = 100mbit\nbackbone.rate = 1gbit\n");
    ClusterTopology f =
        ClusterTopology.from(
            new SparkConf(false)
                .set(Settings.TOPOLOGY_FILE.key(), "topology-yarn.conf")
                .set("spark.yarn.dist.files", table.toUri() + "," + conf.toUri()));
    assertEquals(Optional.of("/a/r1"), f.pathOf("10.0.0.1"));
    ConfigValueException e =
        assertThrows(
            ConfigValueException.class,
            () ->
                ClusterTopology.from(
                    new SparkConf(false).set(Settings.TOPOLOGY_FILE.key(), "topology-yarn.conf")));
    assertEquals(Settings.TOPOLOGY_FILE.key(), e.key(), "not distributed: named by its key");
  }
}
