package io.wanshuffle.spark.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.topology.TopologyException;
import io.wanshuffle.spark.config.ConfigValueException;
import io.wanshuffle.spark.config.Settings;
import io.wanshuffle.spark.config.WanShuffleConf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The links of a flow and their capacities: the KPBS platform of the rate keys, and a topology
 * file's NICs, racks and backbone sides.
 */
class LinkModelTest {
  @TempDir Path dir;

  private static final String TABLE =
      "a1 /A/r0\na2 /A/r0\na3 /A/r1\nb1 /B/r0\nb2 /B/r1\nc1 /C/r0\n";

  private Path topology(String rates) throws IOException {
    Files.writeString(dir.resolve("t.table"), TABLE);
    Path conf = dir.resolve("t.conf");
    Files.writeString(conf, "mapping.table = t.table\n" + rates);
    return conf;
  }

  private static ClusterTopology load(Path file) {
    return ClusterTopology.from(
        new SparkConf(false).set(Settings.TOPOLOGY_FILE.key(), file.toString()));
  }

  private static WanShuffleConf conf(SparkConf c) {
    return WanShuffleConf.from(c);
  }

  private static List<String> names(LinkModel m, int[] route) {
    List<String> out = new ArrayList<>();
    for (int l : route) {
      out.add(m.name(l) + "=" + m.capacity(l));
    }
    return out;
  }

  @Test
  void theRateKeysGiveTheKpbsPlatform() {
    WanShuffleConf c =
        conf(
            new SparkConf(false)
                .set(Settings.BACKBONE_RATE.key(), "200mbit")
                .set(Settings.NIC_RATE.key(), "100mbit"));
    LinkModel m = LinkModel.flat(c, h -> h.substring(0, 1));
    assertFalse(m.topologyAware());
    assertEquals(2, m.k());
    assertEquals(12_500_000, m.baseSpeed());
    assertEquals(
        List.of("nic.up[a1]=1", "backbone.out[/a]=2", "backbone.in[/b]=2", "nic.down[b1]=1"),
        names(m, m.route("a1", "b1")));
    assertEquals(1, m.sendPorts("a1"));
    assertEquals(1, m.receivePorts("b1"));
  }

  @Test
  void aTopologyFileGivesEveryLinkItsRateOverTheGcdOfTheFilesRates() throws IOException {
    ClusterTopology t =
        load(
            topology(
                "nic.rate = 100M\nrack.rate = 200M\nbackbone.rate = 300M\n"
                    + "backbone.in.rate[/B] = 400M\n"));
    assertEquals(java.util.Optional.of("A"), t.clusterOf("a3"));
    LinkModel m = t.links(conf(new SparkConf(false)));
    assertEquals(100_000_000, m.baseSpeed(), "gcd of 100M, 200M, 300M, 400M");
    assertEquals(4, m.k(), "the largest backbone side: 400M / 100M");
    assertTrue(m.topologyAware(), "racks have rates");
    assertEquals(
        List.of(
            "nic.up[a3]=1",
            "rack.uplink[/A/r1]=2",
            "backbone.out[/A]=3",
            "backbone.in[/B]=4",
            "rack.downlink[/B/r0]=2",
            "nic.down[b1]=1"),
        names(m, m.route("a3", "b1")));
    assertEquals(
        List.of("nic.up[a1]=1", "nic.down[a2]=1"),
        names(m, m.route("a1", "a2")),
        "one rack: no rack or backbone link");
    assertEquals(1, m.sendPorts("a1"));
    assertEquals(1, m.receivePorts("c1"));
  }

  @Test
  void planningSeesTheLinksOnlyWhenTheyMatter() throws IOException {
    Files.writeString(dir.resolve("t.table"), "a1 /A/r0\nb1 /B/r0\n");
    Path two = dir.resolve("two.conf");
    Files.writeString(
        two, "mapping.table = t.table\nnic.rate = 100M\nrack.rate = none\nbackbone.rate = 200M\n");
    assertFalse(load(two).links(conf(new SparkConf(false))).topologyAware(), "two equal sides");
    Files.writeString(
        two,
        "mapping.table = t.table\nnic.rate = 100M\nrack.rate = none\nbackbone.rate = 200M\n"
            + "backbone.out.rate[/A] = 100M\n");
    assertTrue(load(two).links(conf(new SparkConf(false))).topologyAware(), "unequal sides");
  }

  @Test
  void threeClustersMakePlanningSeeTheLinks() throws IOException {
    assertTrue(
        load(topology("nic.rate = 100M\nrack.rate = none\nbackbone.rate = 200M\n"))
            .links(conf(new SparkConf(false)))
            .topologyAware());
  }

  @Test
  void aLinkWithoutARateStopsStartUpNamingTheFileAndTheLink() throws IOException {
    Path file = topology("nic.rate = 100M\nbackbone.rate = 200M\n");
    ConfigValueException e =
        assertThrows(
            ConfigValueException.class, () -> load(file).links(conf(new SparkConf(false))));
    assertTrue(e.getMessage().startsWith(Settings.TOPOLOGY_FILE.key() + " = '"), e.getMessage());
    assertTrue(e.getMessage().contains("rack.uplink[/A/r0] has no capacity"), e.getMessage());
  }

  @Test
  void ratesWithoutASizeableCommonDivisorAreRefused() throws IOException {
    Path file = topology("nic.rate = 1000000001\nrack.rate = none\nbackbone.rate = 1000000000\n");
    ConfigValueException e =
        assertThrows(
            ConfigValueException.class, () -> load(file).links(conf(new SparkConf(false))));
    assertTrue(e.getMessage().contains("round the rates"), e.getMessage());
  }

  @Test
  void aTopologyFileThatDoesNotParseStopsStartUpNamingTheKeyFileAndLine() throws IOException {
    Path file = topology("nic.rate = 100 parsecs\n");
    ConfigValueException e = assertThrows(ConfigValueException.class, () -> load(file));
    assertTrue(e.getMessage().startsWith(Settings.TOPOLOGY_FILE.key() + " = '"), e.getMessage());
    assertTrue(e.getMessage().contains("t.conf:2:"), e.getMessage());
  }

  @Test
  void kAndDeltaCannotBeSetWithATopologyFile() {
    ConfigValueException e =
        assertThrows(
            ConfigValueException.class,
            () ->
                conf(
                    new SparkConf(false)
                        .set(Settings.TOPOLOGY_FILE.key(), "t.conf")
                        .set(Settings.K.key(), "4")));
    assertTrue(e.getMessage().startsWith(Settings.K.key() + " = '4'"), e.getMessage());
  }

  @Test
  void anUnknownHostOfTheRouteIsNamed() throws IOException {
    LinkModel m =
        load(topology("nic.rate = 100M\nrack.rate = none\nbackbone.rate = 200M\n"))
            .links(conf(new SparkConf(false)));
    TopologyException e = assertThrows(TopologyException.class, () -> m.route("a1", "z9"));
    assertTrue(e.getMessage().contains("z9"), e.getMessage());
  }
}
