package io.wanshuffle.it.links;

import io.wanshuffle.it.net.LoopbackTestbed;
import io.wanshuffle.it.net.Testbed;
import io.wanshuffle.it.net.TestbedSpec;
import io.wanshuffle.spark.capture.FlowCapture;
import java.nio.file.Path;
import java.util.List;

/**
 * The links of a loopback testbed of 2 sites x 2 racks x 2 hosts (one host per rack), NIC 100
 * Mbit/s, rack links 100 Mbit/s (2:1 with two hosts; here 1:1), backbone 200 Mbit/s: base speed
 * 12.5 MB/s, NICs and racks 1 flow, backbone sides 2. Hosts: a1 = 127.0.1.11 (/A/rack0), a2 =
 * 127.0.1.12 (/A/rack1), b1 = 127.0.2.11 (/B/rack0), b2 = 127.0.2.12 (/B/rack1).
 */
final class LinksFixture {
  static final String A1 = "127.0.1.11";
  static final String A2 = "127.0.1.12";
  static final String B1 = "127.0.2.11";
  static final String B2 = "127.0.2.12";

  private LinksFixture() {}

  static TopologyLinks twoByTwo(Path dir, int hostsPerSite) {
    TestbedSpec s =
        new TestbedSpec(
            List.of(hostsPerSite, hostsPerSite),
            2,
            100_000_000,
            100_000_000,
            100_000_000,
            List.of(200_000_000L, 200_000_000L),
            0,
            "bbr");
    try (Testbed t = LoopbackTestbed.start(s)) {
      t.writeTopologyTable(dir.resolve("topology.table"));
      return TopologyLinks.load(
          t.writeTopologyConfig(dir.resolve("topology.conf"), "topology.table"));
    }
  }

  /** A gated flow src -> dst holding its links over [start, until). */
  static FlowCapture flow(String src, String dst, long start, long until) {
    return new FlowCapture(1, 3, 0, 1, 7, src, dst, 1000, start, until, until);
  }
}
