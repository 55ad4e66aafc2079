package io.wanshuffle.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.net.TestbedSpec;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Two sites of two racks on loopback addresses, site A's racks of two hosts with uplinks at the NIC
 * rate (2:1), site B's of one host: the jobs' answers under wan-shuffle with the testbed's topology
 * file equal Spark's sort shuffle's (the jobs' oracles), the plugin plans on the file's links (its
 * capture records them with the file's capacities), and the flow log keeps the per-link contract:
 * no link, rack uplinks of capacity 1 included, holds more flows at once than its window may reach
 * (its capacity for NICs, the adaptive window rule's bound for rack and backbone links: {@link
 * TopologyContract}). One cluster for the class.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RackTopologyIT {
  static final TestbedSpec SPEC =
      new TestbedSpec(
          List.of(4, 2),
          2,
          TestbedSpec.DEFAULT_NIC,
          TestbedSpec.DEFAULT_NIC,
          TestbedSpec.DEFAULT_NIC,
          List.of(TestbedSpec.DEFAULT_BACKBONE, TestbedSpec.DEFAULT_BACKBONE),
          0,
          TestbedSpec.DEFAULT_TCP_CC);

  static TopologyContract t;

  @BeforeAll
  static void start() throws Exception {
    t = new TopologyContract(SPEC, "racks");
    t.startWanShuffle();
  }

  @AfterAll
  static void stop() {
    if (t != null) {
      t.close();
    }
  }

  @Test
  @Order(1)
  void theTopologyTableAndFileDescribeTheRacks() {
    assertEquals(
        List.of("/A/rack0", "/A/rack0", "/A/rack1", "/A/rack1"),
        t.cluster.testbed().clusterA().stream().map(n -> n.networkPath()).toList());
    assertEquals(1, t.model.capacityFlows("rack.uplink[/A/rack0]"), "uplink at the NIC rate");
    assertEquals(2, t.model.capacityFlows("backbone.out[/A]"));
  }

  @Test
  @Order(2)
  void answersAreTheOraclesWithTheTopologyFile() {
    t.assertOraclesAnswer("reduceByKey");
    t.assertOraclesAnswer("groupByKey");
  }

  @Test
  @Order(3)
  void theFlowLogKeepsThePerLinkContract() throws Exception {
    Map<String, Integer> planned = t.assertPluginPlansOnTheTestbedsLinks();
    assertTrue(
        planned.containsKey("rack.uplink[/A/rack0]")
            && planned.containsKey("rack.downlink[/B/rack1]"),
        "the plugin planned on the rack links: " + planned);
    Map<String, Integer> max = t.assertPerLinkContract(t.gatedFlows());
    assertTrue(
        max.containsKey("rack.uplink[/A/rack0]") && max.containsKey("rack.uplink[/A/rack1]"),
        "flows left both racks of A: " + max);
  }
}
