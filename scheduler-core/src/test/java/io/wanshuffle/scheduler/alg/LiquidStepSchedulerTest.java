package io.wanshuffle.scheduler.alg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.InvalidScheduleException;
import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.scheduler.topology.LinkCapacityValidator;
import io.wanshuffle.scheduler.topology.LinkLowerBound;
import io.wanshuffle.scheduler.topology.LinkNetwork;
import io.wanshuffle.scheduler.topology.Topology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LiquidStepSchedulerTest {
  @TempDir Path dir;

  /** A random two-cluster tree written as a topology file, with the test's own view of it. */
  private record Tree(
      Topology topology,
      List<String> senders,
      List<String> receivers,
      Map<String, String> rackOf,
      Map<String, Long> rate) {}

  private Tree randomTree(Random rnd, boolean flat) throws IOException {
    StringBuilder table = new StringBuilder();
    StringBuilder conf = new StringBuilder("mapping.table = racks.table\n");
    Map<String, String> rackOf = new HashMap<>();
    Map<String, Long> rate = new HashMap<>();
    List<String> senders = new ArrayList<>();
    List<String> receivers = new ArrayList<>();
    long base = 125_000;
    for (String c : new String[] {"A", "B"}) {
      int racks = 1 + rnd.nextInt(3);
      for (int r = 0; r < racks; r++) {
        String rack = "/dc" + c + "/r" + r;
        long up = base * (1 + rnd.nextInt(3));
        long down = base * (1 + rnd.nextInt(3));
        if (!flat) {
          conf.append("rack.uplink.rate[").append(rack).append("] = ").append(up).append('\n');
          conf.append("rack.downlink.rate[").append(rack).append("] = ").append(down).append('\n');
          rate.put("rack.uplink" + rack, up);
          rate.put("rack.downlink" + rack, down);
        }
        int hosts = 1 + rnd.nextInt(3);
        for (int h = 0; h < hosts; h++) {
          String host = c.toLowerCase() + r + "h" + h;
          table.append(host).append(' ').append(rack).append('\n');
          rackOf.put(host, rack);
          long nic = base * (1 + rnd.nextInt(2));
          conf.append("nic.rate[").append(host).append("] = ").append(nic).append('\n');
          rate.put("nic" + host, nic);
          (c.equals("A") ? senders : receivers).add(host);
        }
      }
      long bb = base * (1 + rnd.nextInt(4));
      conf.append("backbone.rate[/dc").append(c).append("] = ").append(bb).append('\n');
      rate.put("backbone/dc" + c, bb);
    }
    if (flat) {
      conf.append("rack.rate = none\n");
    }
    Files.writeString(dir.resolve("racks.table"), table);
    Path cf = dir.resolve("topology.conf");
    Files.writeString(cf, conf);
    return new Tree(Topology.load(cf), senders, receivers, rackOf, rate);
  }

  private static TrafficMatrix randomMatrix(Random rnd, int rows, int cols) {
    double[][] a = new double[rows][cols];
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        a[i][j] = rnd.nextInt(3) == 0 ? 0 : 1 + rnd.nextInt(20);
      }
    }
    a[0][0] = Math.max(a[0][0], 1);
    return TrafficMatrix.of(a);
  }

  /** Link names a transfer uses, derived here from the tree (independently of Topology). */
  private static List<String> links(Tree t, String s, String d) {
    String rs = t.rackOf().get(s);
    String rd = t.rackOf().get(d);
    List<String> l =
        new ArrayList<>(List.of("nic" + s, "nicdown" + d, "backbone/dcA", "backbone-in/dcB"));
    if (t.rate().containsKey("rack.uplink" + rs)) {
      l.add("rack.uplink" + rs);
      l.add("rack.downlink" + rd);
    }
    return l;
  }

  private static long rateOf(Tree t, String link) {
    String key =
        link.startsWith("nicdown")
            ? "nic" + link.substring(7)
            : link.startsWith("backbone-in") ? "backbone" + link.substring(11) : link;
    return t.rate().get(key);
  }

  /** Recomputes, from the tree alone, that no step overloads a link and that all is covered. */
  private static void checkIndependently(Tree t, TrafficMatrix m, Schedule s) {
    long g = 0;
    for (long r : t.rate().values()) {
      g = java.math.BigInteger.valueOf(g).gcd(java.math.BigInteger.valueOf(r)).longValue();
    }
    double[][] covered = new double[m.rows()][m.cols()];
    for (Step step : s.steps()) {
      Map<String, Integer> use = new HashMap<>();
      for (Transfer tr : step.transfers()) {
        assertTrue(tr.amount() <= step.duration() + 1e-9);
        covered[tr.src()][tr.dst()] += tr.amount();
        for (String l : links(t, t.senders().get(tr.src()), t.receivers().get(tr.dst()))) {
          use.merge(l, 1, Integer::sum);
        }
      }
      for (Map.Entry<String, Integer> e : use.entrySet()) {
        // the gcd over all configured rates may be smaller than over the used links: compare rates
        long needed = (long) e.getValue() * g;
        assertTrue(
            needed <= rateOf(t, e.getKey())
                || e.getValue() <= capacityUsingRoutesGcd(t, m, e.getKey()),
            "link " + e.getKey() + " overloaded: " + e.getValue() + " flows");
      }
    }
    for (int i = 0; i < m.rows(); i++) {
      for (int j = 0; j < m.cols(); j++) {
        assertEquals(m.amount(i, j), covered[i][j], 1e-9 * Math.max(1, m.amount(i, j)));
      }
    }
  }

  /** Capacity of a link with the base speed taken over the links on the matrix's routes only. */
  private static long capacityUsingRoutesGcd(Tree t, TrafficMatrix m, String link) {
    long g = 0;
    for (String s : t.senders()) {
      for (String d : t.receivers()) {
        for (String l : links(t, s, d)) {
          g =
              java.math.BigInteger.valueOf(g)
                  .gcd(java.math.BigInteger.valueOf(rateOf(t, l)))
                  .longValue();
        }
      }
    }
    return rateOf(t, link) / g;
  }

  private static double cost(Schedule s, double beta) {
    double c = 0;
    for (Step st : s.steps()) {
      double d = 0;
      for (Transfer tr : st.transfers()) {
        d = Math.max(d, tr.amount());
      }
      c += beta + d;
    }
    return c;
  }

  @Test
  void everyStepRespectsEveryLinkOnRandomTrees() throws IOException {
    Random rnd = new Random(7);
    for (int round = 0; round < 40; round++) {
      Tree t = randomTree(rnd, false);
      LinkNetwork net = t.topology().network(t.senders(), t.receivers());
      TrafficMatrix m = randomMatrix(rnd, t.senders().size(), t.receivers().size());
      double beta = rnd.nextInt(4);
      Platform p = net.platform(beta);
      Schedule s = new LiquidStepScheduler(net).schedule(m, p);
      checkIndependently(t, m, s);
      LinkCapacityValidator.validate(s, m, net);
      s.validate(m, p);
      assertTrue(cost(s, beta) <= s.cost(beta) + 1e-9);
      LowerBound lb = LinkLowerBound.of(m, net, beta);
      assertTrue(s.cost(beta) >= lb.eta() - 1e-9, "cost " + s.cost(beta) + " < bound " + lb.eta());
      assertTrue(lb.eta() >= LowerBound.of(m, p).eta() - 1e-9, "link bound includes the KPBS one");
    }
  }

  @Test
  void flatTopologyReducesToKpbs() throws IOException {
    Random rnd = new Random(11);
    for (int round = 0; round < 30; round++) {
      Tree t = randomTree(rnd, true);
      LinkNetwork net = t.topology().network(t.senders(), t.receivers());
      TrafficMatrix m = randomMatrix(rnd, t.senders().size(), t.receivers().size());
      double beta = rnd.nextInt(3);
      Platform p = net.platform(beta);
      // with NIC and backbone links only the generalised bound is the KPBS η
      LowerBound kpbs = LowerBound.of(m, p);
      LowerBound links = LinkLowerBound.of(m, net, beta);
      assertEquals(kpbs.etaD(), links.etaD(), 1e-9);
      assertEquals(kpbs.etaS(), links.etaS());
      Schedule s = new LiquidStepScheduler(net).schedule(m, p);
      s.validate(m, p);
      Schedule flat = new LiquidStepScheduler().schedule(m, p);
      flat.validate(m, p);
      assertTrue(s.cost(beta) >= kpbs.eta() - 1e-9);
      assertTrue(flat.cost(beta) >= kpbs.eta() - 1e-9);
      if (Algorithms.names().contains("auto")) {
        Schedule a = Algorithms.byName("auto").schedule(m, p);
        assertTrue(
            s.cost(beta) <= a.cost(beta) + 1e-9, "liquid on a flat topology costs more than auto");
        assertTrue(
            flat.cost(beta) <= a.cost(beta) + 1e-9, "liquid without topology costs more than auto");
      }
    }
  }

  @Test
  void amountsNearTheLargestDoubleArePlanned() {
    // the step weights once computed 2 * load / maxLoad, which overflowed above Double.MAX_VALUE /
    // 2
    for (double[][] a :
        new double[][][] {{{1e308}}, {{8e307, 0}, {0, 8e307}}, {{8e307, 1}, {1, 8e307}}}) {
      TrafficMatrix m = TrafficMatrix.of(a);
      Platform p = Platform.onePort(2, 0, a.length, a[0].length);
      Schedule s = new LiquidStepScheduler().schedule(m, p);
      s.validate(m, p);
      assertEquals(a[0][0], s.transmissionTime(), 1e294, "the large transfers share a step");
    }
  }

  @Test
  void validatorRejectsAnOverloadedRackUplink() {
    // two senders in one rack whose uplink carries 1 flow, two receivers
    LinkNetwork.Builder b = new LinkNetwork.Builder(2, 2);
    int up = b.addLink("rack.uplink[/A/r]", 1);
    int bb = b.addLink("backbone", 2);
    for (int i = 0; i < 2; i++) {
      for (int j = 0; j < 2; j++) {
        b.route(i, j, new int[] {up, bb}, new int[0]);
      }
    }
    LinkNetwork net = b.build(2, new int[] {1, 1}, new int[] {1, 1}, 0);
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{1, 0}, {0, 1}});
    Schedule both =
        new Schedule(List.of(Step.of(List.of(new Transfer(0, 0, 1), new Transfer(1, 1, 1)))));
    both.validate(m, net.platform(0));
    InvalidScheduleException e =
        assertThrows(
            InvalidScheduleException.class, () -> LinkCapacityValidator.validate(both, m, net));
    assertTrue(e.getMessage().contains("rack.uplink[/A/r]"));
    assertEquals(1, LinkCapacityValidator.overloads(both, net));
    Schedule s = new LiquidStepScheduler(net).schedule(m, net.platform(0));
    LinkCapacityValidator.validate(s, m, net);
    assertEquals(2, s.stepCount());
  }

  @Test
  void largeInstancesUseTheGreedyChoiceAndStayValid() {
    // 40 x 40 = 1600 transfers > FLOW_LIMIT: 4 racks per side, uplinks of 3 flows, backbone 12
    int n = 40;
    LinkNetwork net = rackNetwork(n, 3, 12, i -> i % 4);
    Random rnd = new Random(5);
    TrafficMatrix m = randomMatrix(rnd, n, n);
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        if (m.amount(i, j) == 0) {
          m = TrafficMatrix.ofRowMajor(n, n, set(m.toRowMajor(), i * n + j, 1));
        }
      }
    }
    assertTrue(m.nonZeroCount() > LiquidStepScheduler.FLOW_LIMIT);
    Platform p = net.platform(0.2);
    Schedule s = new LiquidStepScheduler(net).schedule(m, p);
    LinkCapacityValidator.validate(s, m, net);
    s.validate(m, p);
    assertTrue(s.cost(0.2) >= LinkLowerBound.of(m, net, 0.2).eta() - 1e-9);
    Schedule own = LiquidStepScheduler.flowStepsOnly(net).schedule(m, p);
    LinkCapacityValidator.validate(own, m, net);
  }

  @Test
  void aboveTheOwnStepsLimitRackBoundStepsStillFillTheBackbone() {
    // 150 x 150 = 22,500 transfers > OWN_STEPS_LIMIT; 4 racks per side whose links carry 4 flows,
    // backbone 8 (as the fuzzing pass's case that cost 1.97 x the bound): a rack-blind schedule of
    // 8 flows per step, split until no rack link is overloaded, doubles the steps
    int n = 150;
    LinkNetwork net = rackNetwork(n, 4, 8, i -> i * 4 / n);
    Random rnd = new Random(23);
    double[] a = new double[n * n];
    for (int x = 0; x < a.length; x++) {
      a[x] = 1 + rnd.nextInt(100);
    }
    TrafficMatrix m = TrafficMatrix.ofRowMajor(n, n, a);
    assertTrue(m.nonZeroCount() > LiquidStepScheduler.OWN_STEPS_LIMIT);
    Platform p = net.platform(0.5);
    Schedule s = new LiquidStepScheduler(net).schedule(m, p);
    LinkCapacityValidator.validate(s, m, net);
    s.validate(m, p);
    double bound = LinkLowerBound.of(m, net, 0.5).eta();
    assertTrue(s.cost(0.5) <= 1.05 * bound, "cost " + s.cost(0.5) + " against bound " + bound);
  }

  /**
   * n senders and n receivers on 4 racks per side (host i on rack {@code rackOf(i)}), 1-flow NICs,
   * rack uplinks and downlinks of {@code rackFlows}, backbone directions of {@code backboneFlows} =
   * k.
   */
  private static LinkNetwork rackNetwork(
      int n, int rackFlows, int backboneFlows, java.util.function.IntUnaryOperator rackOf) {
    LinkNetwork.Builder b = new LinkNetwork.Builder(n, n);
    int out = b.addLink("backbone.out", backboneFlows);
    int in = b.addLink("backbone.in", backboneFlows);
    int[] up = new int[4];
    int[] down = new int[4];
    for (int r = 0; r < 4; r++) {
      up[r] = b.addLink("up" + r, rackFlows);
      down[r] = b.addLink("down" + r, rackFlows);
    }
    int[] nicUp = new int[n];
    int[] nicDown = new int[n];
    for (int i = 0; i < n; i++) {
      nicUp[i] = b.addLink("nu" + i, 1);
      nicDown[i] = b.addLink("nd" + i, 1);
    }
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        b.route(
            i,
            j,
            new int[] {nicUp[i], up[rackOf.applyAsInt(i)], out},
            new int[] {in, down[rackOf.applyAsInt(j)], nicDown[j]});
      }
    }
    int[] ones = new int[n];
    java.util.Arrays.fill(ones, 1);
    return b.build(backboneFlows, ones, ones, 0);
  }

  private static double[] set(double[] a, int i, double v) {
    a[i] = v;
    return a;
  }
}
