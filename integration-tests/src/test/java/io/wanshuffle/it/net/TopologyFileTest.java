package io.wanshuffle.it.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.wanshuffle.scheduler.topology.Link;
import io.wanshuffle.scheduler.topology.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopologyFileTest {
  private static final long M = 1_000_000;
  @TempDir Path dir;

  @Test
  void theDefaultTestbedIsNicsAndTwoBackboneSidesWithoutRackLinks() {
    assertEquals(
        "# wan-shuffle testbed: 2 sites, 3 + 3 hosts, NIC 100 Mbit/s, backbone 200 Mbit/s\n"
            + "# format: docs/topology.md (./wan-shuffle plan --topology)\n"
            + "mapping.table = topology.table\n"
            + "nic.rate = 12500000\n"
            + "rack.rate = none\n"
            + "backbone.out.rate[/A] = 25000000\n"
            + "backbone.in.rate[/A] = 25000000\n"
            + "backbone.out.rate[/B] = 25000000\n"
            + "backbone.in.rate[/B] = 25000000\n",
        TopologyFile.text(TestbedSpec.defaults(), "topology.table"));
  }

  @Test
  void shapedRacksAndUnequalSidesAreWrittenInBytesPerSecond() {
    TestbedSpec s =
        new TestbedSpec(
            List.of(2, 2, 2), 2, 100 * M, 100 * M, 0, List.of(100 * M, 200 * M, 50 * M), 0, "bbr");
    String text = TopologyFile.text(s, "t.table");
    assertEquals(
        List.of(
            "mapping.table = t.table",
            "nic.rate = 12500000",
            "rack.uplink.rate = 12500000",
            "rack.downlink.rate = none",
            "backbone.out.rate[/A] = 12500000",
            "backbone.in.rate[/A] = 12500000",
            "backbone.out.rate[/B] = 25000000",
            "backbone.in.rate[/B] = 25000000",
            "backbone.out.rate[/C] = 6250000",
            "backbone.in.rate[/C] = 6250000"),
        text.lines().filter(l -> !l.startsWith("#")).toList());
  }

  /**
   * The file the testbed writes is what {@code plan --topology} and the plugin read: scheduler-core
   * loads it with the table written beside it, and a transfer between racks of two sites holds its
   * NICs, both rack links and both backbone sides.
   */
  @Test
  void schedulerCoreReadsTheTestbedsTopologyFileAndTable() throws Exception {
    TestbedSpec s =
        TestbedSpec.defaults()
            .withSites(List.of(2, 2, 2), List.of(100 * M, 200 * M, 100 * M))
            .withRacks(2, 100 * M, 100 * M);
    try (Testbed t = LoopbackTestbed.start(s)) {
      Path table = t.writeTopologyTable(dir.resolve("topology.table"));
      Path conf = t.writeTopologyConfig(dir.resolve("topology.conf"), "topology.table");
      assertEquals(
          "127.0.0.2 /A/rack0\n127.0.1.11 /A/rack0\n127.0.1.12 /A/rack1\n127.0.2.11 /B/rack0\n"
              + "127.0.2.12 /B/rack1\n127.0.3.11 /C/rack0\n127.0.3.12 /C/rack1\n",
          Files.readString(table));
      Topology topo = Topology.load(conf);
      assertEquals(
          List.of(
              "nic.up[127.0.3.12]",
              "rack.uplink[/C/rack1]",
              "backbone.out[/C]",
              "backbone.in[/B]",
              "rack.downlink[/B/rack0]",
              "nic.down[127.0.2.11]"),
          topo.route("127.0.3.12", "127.0.2.11").stream().map(Link::name).toList());
      assertEquals(
          List.of(12_500_000L, 12_500_000L, 12_500_000L, 25_000_000L, 12_500_000L, 12_500_000L),
          topo.route("127.0.3.12", "127.0.2.11").stream().map(Link::rate).toList());
      assertEquals(
          List.of("nic.up[127.0.1.11]", "nic.down[127.0.1.12]"),
          topo.route("127.0.1.11", "127.0.1.12").stream()
              .map(Link::name)
              .filter(n -> !n.startsWith("rack"))
              .toList(),
          "within a site: no backbone side");
    }
  }
}
