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
 * Three sites of two hosts on loopback addresses, every backbone side 200 Mbit/s: maps on A and C,
 * reduces on B, so B's incoming side is shared. The answers under wan-shuffle with the testbed's
 * topology file equal Spark's sort shuffle's (the jobs' oracles), the plugin plans on the file's
 * links, and the flow log keeps the per-link contract: B's incoming side, of capacity 2, never
 * holds more flows at once from A and C together than its adaptive window may reach (3), nor any
 * other link more than its window ({@link TopologyContract}). One cluster for the class.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ThreeSitesIT {
  static final TestbedSpec SPEC =
      TestbedSpec.defaults()
          .withSites(
              List.of(2, 2, 2),
              List.of(
                  TestbedSpec.DEFAULT_BACKBONE,
                  TestbedSpec.DEFAULT_BACKBONE,
                  TestbedSpec.DEFAULT_BACKBONE));

  static TopologyContract t;

  @BeforeAll
  static void start() throws Exception {
    t = new TopologyContract(SPEC, "three-sites");
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
  void mapsRunOnAAndCAndReducesOnB() {
    assertEquals(
        List.of("127.0.1.11", "127.0.1.12", "127.0.3.11", "127.0.3.12"), t.layout.mapHosts());
    assertEquals(List.of("127.0.2.11", "127.0.2.12"), t.layout.reduceHosts());
    assertEquals(2, t.model.capacityFlows("backbone.in[/B]"), "B's side is shared by A and C");
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
        planned.containsKey("backbone.in[/B]"), "the plugin planned on B's side: " + planned);
    Map<String, Integer> max = t.assertPerLinkContract(t.gatedFlows());
    assertTrue(
        max.containsKey("backbone.out[/A]") && max.containsKey("backbone.out[/C]"),
        "both map sites sent across the backbone: " + max);
    assertTrue(max.containsKey("backbone.in[/B]"), max.toString());
  }
}
