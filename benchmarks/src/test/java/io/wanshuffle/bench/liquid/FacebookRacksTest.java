package io.wanshuffle.bench.liquid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.scheduler.alg.LiquidStepScheduler;
import io.wanshuffle.scheduler.topology.LinkCapacitySplit;
import io.wanshuffle.scheduler.topology.LinkCapacityValidator;
import io.wanshuffle.scheduler.topology.LinkNetwork;
import io.wanshuffle.scheduler.topology.Topology;
import io.wanshuffle.scheduler.workload.CrossClusterShuffle;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FacebookRacksTest {
  @TempDir Path dir;

  @Test
  void activeLayoutHasTwoToOneUplinksAndSplitRepairsOverloads() throws IOException {
    int[] senders = {0, 1, 2, 3, 4, 5, 6, 7};
    int[] receivers = {80, 81, 82, 83};
    double[][] bytes = new double[8][4];
    bytes[0][0] = 250_000_000.0; // hosts 0 and 1 share rack /dcA/r0
    bytes[1][1] = 125_000_000.0;
    bytes[2][2] = 125_000_000.0;
    CrossClusterShuffle s = new CrossClusterShuffle(1, senders, receivers, TrafficMatrix.of(bytes));
    Path conf = FacebookRacks.writeActiveTopology(s, 125_000_000L, 20, dir);
    List<String> sh = new ArrayList<>();
    List<String> rh = new ArrayList<>();
    for (int p : senders) {
      sh.add(FacebookRacks.host(p));
    }
    for (int p : receivers) {
      rh.add(FacebookRacks.host(p));
    }
    LinkNetwork net = Topology.load(conf).network(sh, rh);
    // 8 senders in 4 racks of 2: uplink = 1 NIC = 1 flow; backbone 20 flows; k = min(20, 4 NICs)
    int[] r = net.route(0, 0);
    assertEquals("rack.uplink[/dcA/r0]", net.linkName(r[1]));
    assertEquals(1, net.capacity(r[1]));
    Platform p = net.platform(0.1);
    assertEquals(4, p.k());
    TrafficMatrix m = s.seconds(net.baseSpeed());
    // rack-blind: all three at once (k = 4, 1-port NICs) puts two flows on /dcA/r0's uplink
    Schedule blind =
        new Schedule(
            List.of(
                Step.of(
                    List.of(new Transfer(0, 0, 2), new Transfer(1, 1, 1), new Transfer(2, 2, 1)))));
    blind.validate(m, p);
    assertEquals(1, LinkCapacityValidator.overloads(blind, net));
    Schedule split = LinkCapacitySplit.split(blind, net);
    LinkCapacityValidator.validate(split, m, net);
    split.validate(m, p);
    assertEquals(2, split.stepCount());
    assertEquals(2 + 1 + 2 * 0.1, split.cost(0.1), 1e-9);
    // liquid respects the uplink and is no dearer than the split schedule
    Schedule liquid = new LiquidStepScheduler(net).schedule(m, p);
    LinkCapacityValidator.validate(liquid, m, net);
    assertTrue(liquid.cost(0.1) <= split.cost(0.1) + 1e-9);
  }
}
