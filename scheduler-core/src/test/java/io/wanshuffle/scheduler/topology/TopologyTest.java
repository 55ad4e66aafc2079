package io.wanshuffle.scheduler.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopologyTest {
  @TempDir Path dir;

  private Path write(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  private Topology twoClusters(String extra) throws IOException {
    write(
        "racks.table",
        """
        # host  /cluster/rack
        a1 /dcA/r1
        a2 /dcA/r1
        a3 /dcA/r2
        b1 /dcB/r1
        b2 /dcB/r2
        """);
    return Topology.load(
        write(
            "topology.conf",
            """
        mapping.table = racks.table
        nic.rate = 100M          # both directions
        rack.uplink.rate = 100M
        rack.downlink.rate = 200M
        backbone.rate = 200M
        """
                + extra));
  }

  @Test
  void routesFollowTheTree() throws IOException {
    Topology t = twoClusters("");
    assertEquals("/dcA/r1", t.pathOf("a1"));
    List<String> cross = t.route("a1", "b2").stream().map(Link::name).toList();
    assertEquals(
        List.of(
            "nic.up[a1]",
            "rack.uplink[/dcA/r1]",
            "backbone.out[/dcA]",
            "backbone.in[/dcB]",
            "rack.downlink[/dcB/r2]",
            "nic.down[b2]"),
        cross);
    assertEquals(
        List.of("nic.up[a1]", "nic.down[a2]"),
        t.route("a1", "a2").stream().map(Link::name).toList());
    assertEquals(
        List.of("nic.up[a1]", "rack.uplink[/dcA/r1]", "rack.downlink[/dcA/r2]", "nic.down[a3]"),
        t.route("a1", "a3").stream().map(Link::name).toList());
  }

  @Test
  void capacitiesFollowTheBaseSpeed() throws IOException {
    Topology t = twoClusters("nic.up.rate[a3] = 300M\nrack.rate[/dcB/r1] = none\n");
    LinkNetwork n = t.network(List.of("a1", "a2", "a3"), List.of("b1", "b2"));
    assertEquals(100_000_000L, n.baseSpeed());
    int[] r = n.route(2, 0);
    // a3 -> b1: nic up 3 (capped nowhere), rack uplink 1, backbone 2 + 2, no rack downlink, nic
    // down 1
    assertEquals(5, r.length);
    assertEquals(3, n.capacity(r[0]));
    assertEquals("rack.uplink[/dcA/r2]", n.linkName(r[1]));
    assertEquals(1, n.capacity(r[1]));
    assertEquals(2, n.capacity(r[2]));
    assertEquals(3, n.senderSideLength(2, 0));
    Platform p = n.platform(0.5);
    assertEquals(2, p.k());
    assertEquals(2, p.senderPorts(2), "δ = min(k, NIC / base)");
    assertEquals(1, p.receiverPorts(0));
  }

  @Test
  void aHostWithoutTrafficDoesNotLowerTheBaseSpeed() throws IOException {
    // a3's odd NIC rate shares only 1 B/s with the others; it neither sends nor receives
    Topology t = twoClusters("nic.rate[a3] = 99999999\n");
    List<String> senders = List.of("a1", "a2", "a3");
    List<String> receivers = List.of("b1", "b2");
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{4e8, 0}, {0, 2e8}, {0, 0}});
    LinkNetwork n = t.network(senders, receivers, m);
    assertEquals(100_000_000L, n.baseSpeed());
    assertEquals(2, n.platform(0).k());
    // counted as carrying traffic, the same host gives the gcd 1 B/s: refused by name
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> t.network(senders, receivers));
    assertTrue(
        e.getMessage().contains("times the base speed 1 B/s")
            && e.getMessage().contains("round the rates"),
        e.getMessage());
    assertTrue(e.getMessage().startsWith("link "), e.getMessage());
    // with traffic on a3's route, the same
    TrafficMatrix fromA3 = TrafficMatrix.of(new double[][] {{4e8, 0}, {0, 2e8}, {1, 0}});
    assertThrows(IllegalArgumentException.class, () -> t.network(senders, receivers, fromA3));
    assertThrows(
        IllegalArgumentException.class,
        () -> t.network(senders, receivers, TrafficMatrix.of(new double[][] {{1, 1}})),
        "shape");
  }

  @Test
  void hostMissingFromTheTableIsNamed() throws IOException {
    Topology t = twoClusters("");
    TopologyException e =
        assertThrows(TopologyException.class, () -> t.network(List.of("a1", "zz9"), List.of("b1")));
    assertTrue(
        e.getMessage().contains("zz9") && e.getMessage().contains("racks.table"), e.getMessage());
  }

  @Test
  void linkWithoutCapacityIsNamed() throws IOException {
    write("racks.table", "a1 /dcA/r1\nb1 /dcB/r1\n");
    Path conf = write("t.conf", "mapping.table = racks.table\nnic.rate = 1G\nbackbone.rate = 1G\n");
    Topology t = Topology.load(conf);
    TopologyException e =
        assertThrows(TopologyException.class, () -> t.network(List.of("a1"), List.of("b1")));
    assertTrue(e.getMessage().startsWith(conf.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("rack.uplink[/dcA/r1]"), e.getMessage());
  }

  @Test
  void malformedConfigurationLinesNameFileAndLine() throws IOException {
    write("racks.table", "a1 /dcA/r1\n");
    Path p1 = write("c1.conf", "mapping.table = racks.table\n\nnic.rate 100M\n");
    TopologyException e = assertThrows(TopologyException.class, () -> Topology.load(p1));
    assertTrue(e.getMessage().startsWith(p1 + ":3: "), e.getMessage());
    Path p2 = write("c2.conf", "mapping.table = racks.table\nnic.rate = fast\n");
    e = assertThrows(TopologyException.class, () -> Topology.load(p2));
    assertTrue(e.getMessage().startsWith(p2 + ":2: ") && e.getMessage().contains("fast"));
    Path p3 = write("c3.conf", "mapping.table = racks.table\nnic.speed = 1G\n");
    e = assertThrows(TopologyException.class, () -> Topology.load(p3));
    assertTrue(e.getMessage().startsWith(p3 + ":2: unknown key 'nic.speed'"), e.getMessage());
    Path p4 = write("c4.conf", "mapping.table = racks.table\nnic.rate = 1G\nnic.rate = 2G\n");
    e = assertThrows(TopologyException.class, () -> Topology.load(p4));
    assertTrue(e.getMessage().startsWith(p4 + ":3: ") && e.getMessage().contains("line 2"));
    Path p5 = write("c5.conf", "nic.rate = 1G\n");
    e = assertThrows(TopologyException.class, () -> Topology.load(p5));
    assertTrue(e.getMessage().contains("mapping.table"));
  }

  @Test
  void aHostMappedToTwoPlacesIsNamedWithBothLines() throws IOException {
    Path table = write("dup.table", "h1 /A/r1\nh2 /B/r1\nh1 /A/r1\nh1 /B/r1\n");
    Path conf = write("d.conf", "mapping.table = dup.table\nnic.rate = 1G\n");
    TopologyException e = assertThrows(TopologyException.class, () -> Topology.load(conf));
    assertTrue(
        e.getMessage()
            .endsWith("dup.table:4: host h1 is mapped to /B/r1 here and to /A/r1 on line 1"),
        e.getMessage());
  }

  @Test
  void malformedTableLinesNameFileAndLine() throws IOException {
    Path table = write("bad.table", "a1 /dcA/r1\n# comment\na2\n");
    Path conf = write("c.conf", "mapping.table = bad.table\nnic.rate = 1G\n");
    TopologyException e = assertThrows(TopologyException.class, () -> Topology.load(conf));
    assertTrue(e.getMessage().startsWith(table + ":3: "), e.getMessage());
    write("bad.table", "a1 /dcA\n");
    e = assertThrows(TopologyException.class, () -> Topology.load(conf));
    assertTrue(
        e.getMessage().startsWith(table + ":1: ") && e.getMessage().contains("/cluster/rack"),
        e.getMessage());
  }

  @Test
  void aByteOrderMarkStartsTheConfigurationHarmlesslyButNotTheTable() throws IOException {
    write("racks.table", "a1 /dcA/r1\nb1 /dcB/r1\n");
    Path conf = write("bom.conf", "\uFEFFnic.rate = 100M\r\nmapping.table = racks.table\r\n");
    assertEquals("/dcA/r1", Topology.load(conf).pathOf("a1"));
    Path table = write("racks.table", "\uFEFFa1 /dcA/r1\nb1 /dcB/r1\n");
    TopologyException e = assertThrows(TopologyException.class, () -> Topology.load(conf));
    assertTrue(
        e.getMessage().startsWith(table + ":1: ") && e.getMessage().contains("byte-order mark"),
        e.getMessage());
  }

  @Test
  void scriptBasedMappingIsAccepted() throws IOException {
    Path script =
        write(
            "topo.sh",
            """
        #!/bin/sh
        for h in "$@"; do
          case "$h" in a*) echo "/dcA/r1";; b*) echo "/dcB/r9";; *) echo "/default-rack";; esac
        done
        """);
    assertTrue(script.toFile().setExecutable(true));
    Path conf =
        write(
            "s.conf",
            "mapping.script = topo.sh\nnic.rate = 1G\nrack.rate = none\n" + "backbone.rate = 2G\n");
    Topology t = Topology.load(conf);
    assertEquals("/dcB/r9", t.pathOf("b7"));
    LinkNetwork n = t.network(List.of("a1", "a2"), List.of("b1", "b2"));
    assertEquals(2, n.platform(0).k());
    assertThrows(TopologyException.class, () -> t.pathOf("c1"));
  }

  @Test
  void flatNetworkHasThePlatformsLimits() {
    Platform p = Platform.of(3, 1, new int[] {1, 2}, new int[] {2, 2, 1});
    LinkNetwork n = LinkNetwork.flat(p);
    assertEquals(1 + 2 + 3, n.linkCount());
    assertEquals(3, n.route(1, 2).length);
    assertEquals(p.toString(), n.platform(1).toString());
  }

  @Test
  void ratesTakeDecimalSuffixesAndNone() throws IOException {
    write("racks.table", "a1 /dcA/r1\nb1 /dcB/r1\n");
    Path conf =
        write(
            "r.conf",
            "mapping.table = racks.table\nnic.up.rate = 2500k\n"
                + "nic.down.rate = 5M\nrack.rate = none\nbackbone.rate = 1G\n");
    TopologyConfig c = TopologyConfig.load(conf);
    assertEquals(2_500_000L, c.rate(LinkKind.NIC_UP, "a1").getAsLong());
    assertEquals(5_000_000L, c.rate(LinkKind.NIC_DOWN, "b1").getAsLong());
    assertTrue(c.rate(LinkKind.RACK_UPLINK, "/dcA/r1").isEmpty());
    LinkNetwork n = Topology.load(conf).network(List.of("a1"), List.of("b1"));
    assertEquals(2_500_000L, n.baseSpeed());
    assertEquals(4, n.route(0, 0).length, "rack links set to none are left out");
    assertEquals(400, n.capacity(n.route(0, 0)[1]), "backbone 1G / 2.5M");
  }

  @Test
  void withOnlyRackRatesKIsTheNumberOfTransfersNotUnbounded() throws IOException {
    write("racks.table", "a1 /dcA/r1\na2 /dcA/r2\nb1 /dcB/r1\nb2 /dcB/r1\n");
    Path conf =
        write(
            "k.conf",
            "mapping.table = racks.table\nnic.rate = none\nrack.rate = 100M\n"
                + "backbone.rate = none\n");
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{100, 50}, {0, 80}});
    Platform p =
        Topology.load(conf).network(List.of("a1", "a2"), List.of("b1", "b2"), m).platform(0);
    assertEquals(3, p.k(), "no step can hold more than the matrix's 3 transfers");
    assertEquals(
        4,
        Topology.load(conf).network(List.of("a1", "a2"), List.of("b1", "b2")).platform(0).k(),
        "without a matrix, every pair");
  }

  @Test
  void everyLinkNoneIsAnError() throws IOException {
    write("racks.table", "a1 /dcA/r1\nb1 /dcB/r1\n");
    Path conf =
        write(
            "n.conf",
            "mapping.table = racks.table\nnic.rate = none\nrack.rate = none\n"
                + "backbone.rate = none\n");
    TopologyException e =
        assertThrows(
            TopologyException.class,
            () -> Topology.load(conf).network(List.of("a1"), List.of("b1")));
    assertTrue(e.getMessage().startsWith(conf.toString()), e.getMessage());
  }

  @Test
  void failingScriptNamesTheScript() throws IOException {
    Path script = write("broken.sh", "#!/bin/sh\nexit 3\n");
    assertTrue(script.toFile().setExecutable(true));
    Path conf = write("b.conf", "mapping.script = broken.sh\nnic.rate = 1G\n");
    TopologyException e =
        assertThrows(TopologyException.class, () -> Topology.load(conf).pathOf("h1"));
    assertTrue(e.getMessage().contains("broken.sh"), e.getMessage());
  }

  @Test
  void aScriptWithoutExecutePermissionIsNamedAtLoad() throws IOException {
    Path script = write("noexec.sh", "#!/bin/sh\necho /dcA/r1\n");
    assertTrue(script.toFile().setExecutable(false, false));
    Path conf = write("x.conf", "mapping.script = noexec.sh\nnic.rate = 1G\n");
    TopologyException e = assertThrows(TopologyException.class, () -> Topology.load(conf));
    assertEquals(
        conf + ": mapping.script " + script + " is not executable (chmod +x it)", e.getMessage());
  }

  /** A typo in an override's owner would leave the link at its default rate without a word. */
  @Test
  void overridesMustNameWhatTheTableHolds() throws IOException {
    String[][] cases = {
      {
        "nic.rate[a9] = 2G",
        "no such host: topology table "
            + dir.resolve("racks.table")
            + ": host 'a9' is not in the topology"
      },
      {
        "rack.uplink.rate[/dcA/r7] = 2G",
        "no rack /dcA/r7 in topology table "
            + dir.resolve("racks.table")
            + " (racks: /dcA/r1, /dcA/r2, /dcB/r1, /dcB/r2)"
      },
      {
        "backbone.in.rate[/dcC] = 2G",
        "no cluster /dcC in topology table "
            + dir.resolve("racks.table")
            + " (clusters: /dcA, /dcB)"
      },
    };
    for (String[] c : cases) {
      TopologyException e = assertThrows(TopologyException.class, () -> twoClusters(c[0] + "\n"));
      assertEquals(
          dir.resolve("topology.conf")
              + ":6: '"
              + c[0].substring(0, c[0].indexOf(" ="))
              + "': "
              + c[1],
          e.getMessage());
    }
    Topology t =
        twoClusters(
            "nic.rate[b2] = 50M\nrack.rate[/dcB/r2] = 300M\nbackbone.out.rate[/dcB] = 1G\n");
    assertEquals(50_000_000L, t.route("a1", "b2").get(5).rate());
  }

  /**
   * The owner's form follows the key: a host for NICs, /cluster/rack for racks, /cluster for the
   * backbone.
   */
  @Test
  void anOwnerOfTheWrongKindIsRefusedByName() throws IOException {
    String[][] cases = {
      {"rack.rate[/dcA] = 5k", "a rack link belongs to a rack /cluster/rack, got '/dcA'"},
      {
        "nic.rate[/dcA/r1] = 5k",
        "a NIC belongs to a host: name the host, not the network path '/dcA/r1'"
      },
      {
        "backbone.rate[/dcA/r1] = 5k",
        "a backbone side belongs to a cluster /cluster, got '/dcA/r1'"
      },
      {"backbone.rate[dcA] = 5k", "a backbone side belongs to a cluster /cluster, got 'dcA'"},
    };
    for (String[] c : cases) {
      TopologyException e = assertThrows(TopologyException.class, () -> twoClusters(c[0] + "\n"));
      assertEquals(
          dir.resolve("topology.conf")
              + ":6: '"
              + c[0].substring(0, c[0].indexOf(" ="))
              + "': "
              + c[1],
          e.getMessage());
    }
  }

  /**
   * The file reads rates in the syntax the plugin's Spark keys share; its k, M, G, T stay decimal.
   */
  @Test
  void ratesInBitsOrBytesPerSecondMeanWhatThePluginsKeysMean() throws IOException {
    TopologyConfig c =
        twoClusters(
                "nic.rate[a1] = 100mbit\nnic.rate[a2] = 12.5MB/s\nnic.rate[a3] = 1.5gbit/s\n"
                    + "rack.rate[/dcB/r1] = 2.5G\nrack.rate[/dcB/r2] = 1MiB/s\n")
            .config();
    assertEquals(12_500_000L, c.rate(LinkKind.NIC_UP, "a1").getAsLong());
    assertEquals(12_500_000L, c.rate(LinkKind.NIC_DOWN, "a2").getAsLong());
    assertEquals(187_500_000L, c.rate(LinkKind.NIC_UP, "a3").getAsLong());
    assertEquals(2_500_000_000L, c.rate(LinkKind.RACK_UPLINK, "/dcB/r1").getAsLong());
    assertEquals(1_048_576L, c.rate(LinkKind.RACK_DOWNLINK, "/dcB/r2").getAsLong());
    assertEquals(100_000_000L, c.rate(LinkKind.NIC_UP, "b1").getAsLong(), "100M is 10^8 here");
    TopologyException e =
        assertThrows(TopologyException.class, () -> twoClusters("nic.rate[a1] = 12 parsecs\n"));
    assertEquals(
        dir.resolve("topology.conf")
            + ":6: 'nic.rate[a1]': unknown rate unit 'parsecs'; use bit, kbit, mbit, gbit, tbit (or"
            + " bps, kbps, ...), B/s, kB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s, or k, m, g,"
            + " t as in 2500M (10^6 bytes/s), got '12 parsecs'",
        e.getMessage());
    e = assertThrows(TopologyException.class, () -> twoClusters("nic.rate[a1] = 0.5\n"));
    assertEquals(
        dir.resolve("topology.conf")
            + ":6: 'nic.rate[a1]' must be a positive rate such as 100mbit, 1gbit, 12.5MB/s,"
            + " 12500000 (bytes/s) or 2500M (10^6 bytes/s), or 'none', got '0.5'",
        e.getMessage());
  }

  /** Rates are ASCII digits without a sign: Long.parseLong alone would read "\u0662k" as 2000. */
  @Test
  void rateDigitsAreAsciiWithoutSign() throws IOException {
    for (String bad : List.of("\u0662k", "+5G", "-5G", "5 000", "0x10")) {
      TopologyException e =
          assertThrows(TopologyException.class, () -> twoClusters("nic.rate[a1] = " + bad + "\n"));
      assertTrue(
          e.getMessage()
                  .startsWith(
                      dir.resolve("topology.conf")
                          + ":6: 'nic.rate[a1]' must be a"
                          + " positive rate")
              && e.getMessage().endsWith("got '" + bad + "'"),
          e.getMessage());
    }
  }

  /**
   * A rate that parses but exceeds what the planner's arithmetic holds is named too large, with the
   * limit.
   */
  @Test
  void aRateAboveTheLimitIsTooLargeNotMalformed() throws IOException {
    for (String big : List.of("9223372036854775807", "99999999999999999999", "5000000T")) {
      TopologyException e =
          assertThrows(TopologyException.class, () -> twoClusters("nic.rate[a1] = " + big + "\n"));
      assertEquals(
          dir.resolve("topology.conf")
              + ":6: 'nic.rate[a1]' is too large: at most "
              + Long.MAX_VALUE / 2
              + " bytes/s, got '"
              + big
              + "'",
          e.getMessage());
    }
    assertTrue(
        twoClusters("nic.rate[a1] = " + Long.MAX_VALUE / 2 + "\n") != null,
        "the limit itself is a rate");
  }

  /**
   * '#' starts a comment except inside the key's brackets, so a host such as h#1 can be configured.
   */
  @Test
  void aHashInsideTheOwnerBracketsBelongsToTheHostName() throws IOException {
    write("hash.table", "h#1 /A/r1\nh2 /B/r1\n");
    Path conf =
        write(
            "hash.conf",
            "mapping.table = hash.table  # a comment\n"
                + "nic.rate = 1G\nnic.rate[h#1] = 2G # the fast host\nrack.rate = none\nbackbone.rate = 10G\n");
    Topology t = Topology.load(conf);
    assertEquals(2_000_000_000L, t.route("h#1", "h2").get(0).rate());
    assertEquals(1_000_000_000L, t.route("h2", "h#1").get(0).rate());
  }
}
