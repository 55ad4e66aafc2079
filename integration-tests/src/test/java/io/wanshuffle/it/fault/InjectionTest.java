package io.wanshuffle.it.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.it.net.TestbedLayout;
import io.wanshuffle.it.net.TestbedSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The commands each kind of fault runs on the testbed, on a fake one. */
class InjectionTest {
  static final TestbedSpec TWO_SITES_40MS = FaultPlanTest.TWO_SITES_40MS;

  static final TestbedSpec THREE_SITES_RACKS =
      new TestbedSpec(2, 2, TestbedSpec.DEFAULT_NIC, TestbedSpec.DEFAULT_BACKBONE, 0)
          .withSites(List.of(2, 2, 2), List.of(200_000_000L, 200_000_000L, 100_000_000L))
          .withRacks(2, TestbedSpec.UNSHAPED, 50_000_000);

  private static Injection injection(FakeNetwork net, String spec) {
    FaultPlan p = FaultPlan.of(List.of(FaultSpec.parse(spec)), net.layout());
    return new Injection(p.faults().get(0), net);
  }

  @Test
  void downDropsEveryFrameAtTheLinksEgressAndDeletesItsTableWhenUndone() {
    FakeNetwork net = new FakeNetwork(TWO_SITES_40MS);
    Injection i = injection(net, "down:backbone.in[/A]:1:1");
    String detail = i.apply();
    // B -> A leaves by B's side of the backbone, where its tbf is
    assertEquals(
        List.of(
            "ip netns exec wst-swB nft add table netdev wsfault1 ; add chain netdev wsfault1 egress"
                + " { type filter hook egress device \"bbB\" priority 0 ; policy accept ; } ; add"
                + " rule netdev wsfault1 egress drop"),
        net.calls());
    assertEquals("nft table netdev wsfault1 in wst-swB: drop every frame leaving by bbB", detail);
    assertTrue(i.undoable());
    i.undo();
    assertEquals("ip netns exec wst-swB nft delete table netdev wsfault1", net.calls().get(1));
  }

  @Test
  void lossDropsItsShareWithNftablesRandomNumbers() {
    FakeNetwork net = new FakeNetwork(TWO_SITES_40MS);
    injection(net, "loss:nic.up[a2]:1:1:2.5%").apply();
    assertEquals(
        List.of(
            "ip netns exec wst-a2 nft add table netdev wsfault1 ; add chain netdev wsfault1 egress"
                + " { type filter hook egress device \"eth0\" priority 0 ; policy accept ; } ; add"
                + " rule netdev wsfault1 egress numgen random mod 10000 < 250 drop"),
        net.calls());
    FakeNetwork star = new FakeNetwork(THREE_SITES_RACKS);
    injection(star, "loss:backbone.in[/C]:1:1:100").apply();
    assertTrue(
        star.calls().get(0).startsWith("ip netns exec wst-wan nft add table netdev wsfault1 ;"),
        "into site C leaves the core by wC: " + star.calls());
    assertTrue(star.calls().get(0).contains("device \"wC\""), star.calls().get(0));
    assertTrue(star.calls().get(0).endsWith("numgen random mod 10000 < 10000 drop"));
  }

  @Test
  void rateChangesTheTbfAndRestoresTheRateItHad() {
    FakeNetwork net = new FakeNetwork(TWO_SITES_40MS);
    net.outputs.put(
        "tc -n wst-swA -j qdisc show dev bbA",
        "[{\"kind\":\"tbf\",\"handle\":\"8001:\",\"root\":true,\"refcnt\":2,"
            + "\"options\":{\"rate\":25000000,\"burst\":65525,\"lat\":40000}}]");
    Injection i = injection(net, "rate:backbone.out[/A]:1:rest:50mbit");
    String detail = i.apply();
    assertEquals(
        List.of(
            "tc -n wst-swA -j qdisc show dev bbA",
            "tc -n wst-swA qdisc change dev bbA root tbf rate 50000000bit burst 64kb latency 40ms"),
        net.calls());
    assertEquals("tbf on bbA in wst-swA: 200000000 -> 50000000 bit/s", detail);
    i.undo();
    assertEquals(
        "tc -n wst-swA qdisc change dev bbA root tbf rate 200000000bit burst 64kb latency 40ms",
        net.calls().get(2));
  }

  @Test
  void anUnshapedRackLinkGetsATbfForItsRateFaultAndLosesItWhenUndone() {
    FakeNetwork net = new FakeNetwork(THREE_SITES_RACKS);
    net.outputs.put(
        "tc -n wst-swA -j qdisc show dev up-r1", "[{\"kind\":\"noqueue\",\"root\":true}]");
    Injection i = injection(net, "rate:rack.uplink[/A/rack1]:1:1:10mbit");
    assertEquals("tbf on up-r1 in wst-swA: unshaped -> 10000000 bit/s", i.apply());
    assertEquals(
        "tc -n wst-swA qdisc replace dev up-r1 root tbf rate 10000000bit burst 64kb latency 20ms",
        net.calls().get(1));
    i.undo();
    assertEquals("tc -n wst-swA qdisc del dev up-r1 root", net.calls().get(2));
  }

  @Test
  void delayGoesToTheDelayLineAndBackToZero() {
    FakeNetwork net = new FakeNetwork(TWO_SITES_40MS);
    Injection i = injection(net, "delay:backbone.out[/A]:0:1:30");
    assertEquals("delay line: +30.0 ms on backbone.out[/A]", i.apply());
    i.undo();
    assertEquals(List.of("delay backbone.out[/A] 30.0", "delay backbone.out[/A] 0.0"), net.calls());
    assertEquals(
        new TestbedLayout.DelayPort("wA", true),
        net.layout().delayPort("backbone.out[/A]").orElseThrow());
    assertEquals(
        new TestbedLayout.DelayPort("wB", false),
        net.layout().delayPort("backbone.in[/B]").orElseThrow());
  }

  @Test
  void aPartitionDropsTheHostsFramesToAndFromTheControlHostOnItsSwitchPort() {
    FakeNetwork net = new FakeNetwork(TWO_SITES_40MS);
    Injection i = injection(net, "partition:b2:1:60");
    String detail = i.apply();
    assertEquals(
        List.of(
            "ip netns exec wst-swB nft add table netdev wsfault1 ;"
                + " add chain netdev wsfault1 from_host { type filter hook ingress device \"v-b2\""
                + " priority 0 ; policy accept ; } ; add rule netdev wsfault1 from_host ip daddr"
                + " 10.77.0.2 drop ;"
                + " add chain netdev wsfault1 to_host { type filter hook egress device \"v-b2\""
                + " priority 0 ; policy accept ; } ; add rule netdev wsfault1 to_host ip saddr"
                + " 10.77.0.2 drop"),
        net.calls());
    assertEquals(
        "nft table netdev wsfault1 in wst-swB: drop b2's frames to and from 10.77.0.2 on its port"
            + " v-b2",
        detail);
    i.undo();
    assertEquals("ip netns exec wst-swB nft delete table netdev wsfault1", net.calls().get(1));
  }

  @Test
  void killSendsSigkillToTheHostsExecutorsOnly() {
    FakeNetwork net = new FakeNetwork(TWO_SITES_40MS);
    net.outputs.put("ip netns pids wst-b1", "101\n102\n103\n");
    net.commandLines.put(101L, "java -cp ... org.apache.spark.deploy.worker.Worker");
    net.commandLines.put(
        102L,
        "java -cp ... org.apache.spark.executor.CoarseGrainedExecutorBackend --executor-id 1");
    Injection i = injection(net, "kill:b1:2");
    assertEquals("SIGKILL to the executor(s) on b1: pid 102", i.apply());
    assertEquals(List.of("ip netns pids wst-b1", "kill -KILL 102"), net.calls());
    assertFalse(i.undoable());
    net.outputs.put("ip netns pids wst-b1", "101\n");
    IllegalStateException e = assertThrows(IllegalStateException.class, i::apply);
    assertEquals("no Spark executor runs on b1 (namespace wst-b1)", e.getMessage());
  }

  @Test
  void killZookeeperSendsSigkillToTheArbitersServerOnTheControlHost() {
    FakeNetwork net = new FakeNetwork(TWO_SITES_40MS);
    net.outputs.put("ip netns pids wst-ctl", "201\n202\n");
    net.commandLines.put(201L, "java -cp ... org.apache.spark.deploy.master.Master");
    net.commandLines.put(
        202L, "java -cp ... io.wanshuffle.it.concurrent.ZooKeeperMain 10.77.0.2 0 /tmp/zk");
    Injection i = injection(net, "kill:zookeeper:2");
    assertEquals("SIGKILL to the ZooKeeper server on ctl: pid 202", i.apply());
    assertEquals(List.of("ip netns pids wst-ctl", "kill -KILL 202"), net.calls());
    net.outputs.put("ip netns pids wst-ctl", "201\n");
    IllegalStateException e = assertThrows(IllegalStateException.class, i::apply);
    assertEquals(
        "no ZooKeeper server runs (run with --arbiter zookeeper) (namespace wst-ctl)",
        e.getMessage());
  }
}
