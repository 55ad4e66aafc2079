package io.wanshuffle.it.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class HostsTest {
  static final TestbedSpec TWO_AND_THREE =
      new TestbedSpec(2, 3, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 0);

  @Test
  void bothVariantsNumberTheHostsTheSameWayInTheirOwnNetwork() {
    Hosts loopback = Hosts.of(TWO_AND_THREE, "127.0", null);
    Hosts namespaces = Hosts.of(TWO_AND_THREE, "10.77", "wst-");
    assertEquals(new Node("ctl", "A", "127.0.0.2", null), loopback.control());
    assertEquals(
        List.of("127.0.1.11", "127.0.1.12", "127.0.2.11", "127.0.2.12", "127.0.2.13"),
        Node.addresses(
            java.util.stream.Stream.concat(
                    loopback.clusterA().stream(), loopback.clusterB().stream())
                .toList()));
    assertEquals(new Node("ctl", "A", "10.77.0.2", "wst-ctl"), namespaces.control());
    assertEquals(new Node("a2", "A", "10.77.1.12", "wst-a2"), namespaces.clusterA().get(1));
    assertEquals(new Node("b3", "B", "10.77.2.13", "wst-b3"), namespaces.clusterB().get(2));
    for (int i = 0; i < 3; i++) {
      assertEquals(namespaces.clusterB().get(i).name(), loopback.clusterB().get(i).name());
      assertNull(loopback.clusterB().get(i).namespace());
    }
  }

  @Test
  void aHostRunsProgramsInItsNamespaceAndSitsInItsClustersRack() {
    Node a1 = new Node("a1", "A", "10.77.1.11", "wst-a1");
    assertEquals(List.of("ip", "netns", "exec", "wst-a1"), a1.launchPrefix());
    assertEquals(List.of(), new Node("a1", "A", "127.0.1.11", null).launchPrefix());
    assertEquals("/A/rack0", a1.networkPath());
    assertEquals("/B/rack0", new Node("b1", "B", "10.77.2.11", "wst-b1").networkPath());
  }

  @Test
  void theLoopbackTestbedHasTheSchemesHostsAndNothingToTearDown() {
    try (LoopbackTestbed t = LoopbackTestbed.start(TWO_AND_THREE)) {
      assertEquals(Hosts.of(TWO_AND_THREE, "127.0", null).clusterB(), t.clusterB());
      assertEquals(5, t.workers().size());
      assertEquals(false, t.shaped());
      assertEquals(java.util.Optional.empty(), t.backbone());
    }
  }

  @Test
  void sitesCAndDTakeTheNextSubnetsAndHostsFillTheirRacksInOrder() {
    TestbedSpec s =
        TestbedSpec.defaults()
            .withSites(
                List.of(3, 2, 2, 1),
                List.of(
                    TestbedSpec.DEFAULT_BACKBONE,
                    TestbedSpec.DEFAULT_BACKBONE,
                    TestbedSpec.DEFAULT_BACKBONE,
                    TestbedSpec.DEFAULT_BACKBONE))
            .withRacks(1, TestbedSpec.UNSHAPED, TestbedSpec.UNSHAPED);
    Hosts h = Hosts.of(s, "10.77", "wst-");
    assertEquals(new Node("c2", "C", 0, "10.77.3.12", "wst-c2"), h.sites().get(2).get(1));
    assertEquals(new Node("d1", "D", 0, "10.77.4.11", "wst-d1"), h.sites().get(3).get(0));
    Hosts racks =
        Hosts.of(
            s.withSites(List.of(3, 2), List.of(1L << 20, 1L << 20)).withRacks(2, 0, 0),
            "127.0",
            null);
    assertEquals(
        List.of("/A/rack0", "/A/rack0", "/A/rack1"),
        racks.clusterA().stream().map(Node::networkPath).toList());
    assertEquals(
        List.of("/B/rack0", "/B/rack1"), racks.clusterB().stream().map(Node::networkPath).toList());
    assertEquals("/A/rack0", racks.control().networkPath());
    try (LoopbackTestbed t = LoopbackTestbed.start(s)) {
      assertEquals(
          List.of("a1", "a2", "a3", "c1", "c2", "d1"),
          t.mapSide().stream().map(Node::name).toList(),
          "every site but B sends");
      assertEquals(List.of("b1", "b2"), t.reduceSide().stream().map(Node::name).toList());
      assertEquals(8, t.workers().size());
      assertEquals(java.util.Optional.empty(), t.links());
    }
  }
}
