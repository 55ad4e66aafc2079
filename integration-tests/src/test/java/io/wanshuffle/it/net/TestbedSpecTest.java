package io.wanshuffle.it.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TestbedSpecTest {
  private static final long M = 1_000_000;

  private static TestbedSpec spec(List<Integer> hosts, int racks, long rack, List<Long> sides) {
    return new TestbedSpec(hosts, racks, 100 * M, rack, rack, sides, 0, "bbr");
  }

  private static String refused(List<Integer> hosts, int racks, long rack, List<Long> sides) {
    return assertThrows(IllegalArgumentException.class, () -> spec(hosts, racks, rack, sides))
        .getMessage();
  }

  @Test
  void theDefaultsAreTwoSitesOfThreeHostsInOneRackUnshapedRacksAndOneBackboneRate() {
    TestbedSpec d = TestbedSpec.defaults();
    assertEquals(List.of(3, 3), d.hostsPerSite());
    assertEquals(1, d.racksPerSite());
    assertEquals(100 * M, d.nicBitsPerSecond());
    assertEquals(List.of(200 * M, 200 * M), d.backboneSideBitsPerSecond());
    assertEquals(200 * M, d.backboneBitsPerSecond());
    assertFalse(d.racksShaped());
    assertFalse(d.rackSwitches(), "today's layout: hosts on their site's switch");
    assertEquals(
        d, new TestbedSpec(3, 3, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 0));
    assertEquals(3, d.nodesA());
    assertEquals(3, d.nodesB());
    assertEquals(3, d.mapHosts());
  }

  @Test
  void sitesRacksHostsAndRatesOutOfRangeAreRefusedByName() {
    assertEquals("sites must be 2..4, got 1", refused(List.of(2), 1, 0, List.of(200 * M)));
    assertEquals(
        "sites must be 2..4, got 5", refused(List.of(1, 1, 1, 1, 1), 1, 0, List.of(M, M, M, M, M)));
    assertEquals("racks per site must be 1..4, got 5", refused(List.of(5, 5), 5, 0, List.of(M, M)));
    assertEquals("racks per site must be 1..4, got 0", refused(List.of(5, 5), 0, 0, List.of(M, M)));
    assertEquals(
        "site C has 1 host(s) for 2 racks: every rack needs a host",
        refused(List.of(2, 2, 1), 2, 0, List.of(M, M, M)));
    assertEquals(
        "nodes in cluster B must be 1..200, got 201",
        refused(List.of(2, 201), 1, 0, List.of(M, M)));
    assertEquals(
        "rack uplink rate must be at least 8000 bit/s, got 10",
        refused(List.of(2, 2), 1, 10, List.of(M, M)));
    assertEquals(
        "give one backbone rate per site (3), got 2",
        refused(List.of(2, 2, 2), 1, 0, List.of(M, M)));
    assertEquals(
        "backbone rate must be at least 8000 bit/s, got 100 (site C)",
        refused(List.of(2, 2, 2), 1, 0, List.of(M, M, 100L)));
  }

  @Test
  void hostsFillTheirSitesRacksInOrderTheFirstRacksTakingTheRemainder() {
    TestbedSpec s = spec(List.of(4, 3, 5), 2, 0, List.of(M, M, M));
    assertEquals(
        List.of(0, 0, 1, 1),
        List.of(s.rackOf(0, 0), s.rackOf(0, 1), s.rackOf(0, 2), s.rackOf(0, 3)));
    assertEquals(List.of(0, 0, 1), List.of(s.rackOf(1, 0), s.rackOf(1, 1), s.rackOf(1, 2)));
    assertEquals(
        List.of(0, 0, 0, 1, 1),
        List.of(s.rackOf(2, 0), s.rackOf(2, 1), s.rackOf(2, 2), s.rackOf(2, 3), s.rackOf(2, 4)));
    TestbedSpec three = spec(List.of(5, 5), 3, 0, List.of(M, M));
    assertEquals(
        List.of(0, 0, 1, 1, 2),
        List.of(
            three.rackOf(0, 0),
            three.rackOf(0, 1),
            three.rackOf(0, 2),
            three.rackOf(0, 3),
            three.rackOf(0, 4)));
  }

  @Test
  void theKpbsBackboneIsWhatTheMapSitesCanSendIntoB() {
    // A and C into B: the smaller of A + C and B's side
    assertEquals(
        200 * M,
        spec(List.of(2, 2, 2), 1, 0, List.of(100 * M, 200 * M, 100 * M)).backboneBitsPerSecond());
    assertEquals(
        150 * M,
        spec(List.of(2, 2, 2), 1, 0, List.of(100 * M, 150 * M, 100 * M)).backboneBitsPerSecond());
    // two sites: the smaller side
    assertEquals(
        100 * M, spec(List.of(2, 2), 1, 0, List.of(300 * M, 100 * M)).backboneBitsPerSecond());
    assertEquals(3, spec(List.of(2, 2, 2), 1, 0, List.of(M, M, M)).sites());
    assertEquals(4, spec(List.of(2, 3, 1, 1), 1, 0, List.of(M, M, M, M)).mapHosts());
    assertEquals(
        List.of("A", "B", "C", "D"),
        spec(List.of(1, 1, 1, 1), 1, 0, List.of(M, M, M, M)).siteNames());
  }

  @Test
  void racksGetTheirOwnSwitchesWhenThereAreSeveralOrTheirLinksAreShaped() {
    assertTrue(spec(List.of(2, 2), 2, 0, List.of(M, M)).rackSwitches());
    TestbedSpec shapedOne = spec(List.of(2, 2), 1, 50 * M, List.of(M, M));
    assertTrue(shapedOne.racksShaped());
    assertTrue(shapedOne.rackSwitches());
  }

  @Test
  void theShapeIsDescribedInWords() {
    assertEquals(
        "2 sites x 2 racks, 2 + 2 hosts, NIC 100 Mbit/s, rack uplinks 100 Mbit/s, backbone 200 Mbit/s",
        spec(List.of(2, 2), 2, 100 * M, List.of(200 * M, 200 * M)).describeShape());
    assertEquals(
        "3 sites, 2 + 2 + 2 hosts, NIC 100 Mbit/s, backbone sides A 100 Mbit/s, B 200 Mbit/s, C 100"
            + " Mbit/s",
        spec(List.of(2, 2, 2), 1, 0, List.of(100 * M, 200 * M, 100 * M)).describeShape());
    TestbedSpec upOnly =
        new TestbedSpec(List.of(2, 2), 2, 100 * M, 50 * M, 0, List.of(M, M), 0, "bbr");
    assertTrue(
        upOnly.describeShape().contains("rack uplinks 50 Mbit/s / downlinks unshaped"),
        upOnly.describeShape());
  }

  @Test
  void anotherRttOrRackShapeKeepsEverythingElse() {
    TestbedSpec s = spec(List.of(2, 2, 2), 1, 0, List.of(M, 2 * M, M));
    TestbedSpec r = s.withRacks(2, 5 * M, 6 * M).withRtt(40);
    assertEquals(s.hostsPerSite(), r.hostsPerSite());
    assertEquals(s.backboneSideBitsPerSecond(), r.backboneSideBitsPerSecond());
    assertEquals(2, r.racksPerSite());
    assertEquals(5 * M, r.rackUplinkBitsPerSecond());
    assertEquals(6 * M, r.rackDownlinkBitsPerSecond());
    assertEquals(40, r.wanRttMillis());
    assertEquals(List.of(1, 1), s.withSites(List.of(1, 1), List.of(M, M)).hostsPerSite());
  }
}
