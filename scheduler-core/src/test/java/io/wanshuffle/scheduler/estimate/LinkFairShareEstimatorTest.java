package io.wanshuffle.scheduler.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.topology.LinkNetwork;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LinkFairShareEstimatorTest {
  /**
   * RR-5361, sec. 3.1, Fig. 3-5 on the flat network: three disjoint transfers 1 s, 1 s, 2 s, k = 2.
   * Max-min sharing gives the paper's answer: 2/3 each for 1.5 s, then the last 1 s alone.
   */
  @Test
  void workedExampleOnTheFlatNetwork() {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{1, 0, 0}, {0, 1, 0}, {0, 0, 2}});
    LinkNetwork net = LinkNetwork.flat(Platform.onePort(2, 0.0, 3, 3));
    assertEquals(2.5, LinkFairShareEstimator.estimate(m, net), 1e-12);
  }

  /**
   * Two racks behind a 1-flow uplink each share one sender: the uplink halves the rate of the two
   * transfers through it (2 s each at 1/2 = 4 s) while the transfer on the other rack runs at full
   * speed; max-min gives the freed capacity to nobody else (no other transfer uses that uplink).
   */
  @Test
  void rackUplinkIsTheBottleneck() {
    LinkNetwork.Builder b = new LinkNetwork.Builder(3, 1);
    int up1 = b.addLink("rack.uplink[r1]", 1);
    int up2 = b.addLink("rack.uplink[r2]", 1);
    int backbone = b.addLink("backbone", 3);
    int down = b.addLink("nic.down[0]", 3);
    b.route(0, 0, new int[] {up1, backbone}, new int[] {down});
    b.route(1, 0, new int[] {up1, backbone}, new int[] {down});
    b.route(2, 0, new int[] {up2, backbone}, new int[] {down});
    LinkNetwork net = b.build(3, new int[] {1, 1, 1}, new int[] {3}, 0);
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{2}, {2}, {2}});
    assertEquals(4.0, LinkFairShareEstimator.estimate(m, net), 1e-12);
    // A measured uplink twice as fast: every transfer at full speed, 2 s.
    assertEquals(2.0, LinkFairShareEstimator.estimate(m, net, new double[] {2, 1, 3, 3}), 1e-12);
  }

  /**
   * The rates are max-min fair on random networks (the definition, Bertsekas and Gallager sec.
   * 6.5.2): feasible on every link, and every transfer below the base speed crosses a full link on
   * which no transfer runs faster than it.
   */
  @Test
  void ratesAreMaxMinFair() {
    Random random = new Random(11);
    for (int it = 0; it < 400; it++) {
      RandomNet r = RandomNet.of(random);
      LinkFairShareEstimator.Sharing s =
          LinkFairShareEstimator.Sharing.of(r.matrix, r.network, r.capacity);
      int m = s.amount.length;
      boolean[] running = new boolean[m];
      for (int f = 0; f < m; f++) {
        running[f] = random.nextInt(4) > 0;
      }
      double[] rate = new double[m];
      s.rates(running, rate);
      double[] load = new double[r.capacity.length];
      for (int f = 0; f < m; f++) {
        if (running[f]) {
          assertTrue(rate[f] > 0 && rate[f] <= 1 + 1e-12, "rate " + rate[f]);
          for (int l : s.route[f]) {
            load[l] += rate[f];
          }
        }
      }
      for (int l = 0; l < load.length; l++) {
        assertTrue(load[l] <= r.capacity[l] * (1 + 1e-9), "link " + l + " over capacity");
      }
      for (int f = 0; f < m; f++) {
        if (!running[f] || rate[f] >= 1 - 1e-9) {
          continue;
        }
        boolean bottleneck = false;
        for (int l : s.route[f]) {
          boolean full = load[l] >= r.capacity[l] * (1 - 1e-9);
          boolean fastest = true;
          for (int g : s.flowsOn[l]) {
            if (running[g] && rate[g] > rate[f] * (1 + 1e-9)) {
              fastest = false;
            }
          }
          bottleneck |= full && fastest;
        }
        assertTrue(bottleneck, "instance " + it + ": transfer " + f + " has no bottleneck link");
      }
    }
  }

  /**
   * Never below the generalised lower bound (max over links of load / capacity, and the largest
   * amount), never above sending everything one transfer at a time.
   */
  @Test
  void betweenTheLinkBoundAndTheSum() {
    Random random = new Random(12);
    for (int it = 0; it < 300; it++) {
      RandomNet r = RandomNet.of(random);
      double eta = LinkFairShareEstimator.estimate(r.matrix, r.network, r.capacity);
      double[] load = new double[r.capacity.length];
      double largest = 0;
      for (int i = 0; i < r.matrix.rows(); i++) {
        for (int j = 0; j < r.matrix.cols(); j++) {
          double a = r.matrix.amount(i, j);
          largest = Math.max(largest, a);
          for (int l : Arrays.stream(r.network.route(i, j)).distinct().toArray()) {
            load[l] += a;
          }
        }
      }
      double bound = largest;
      for (int l = 0; l < load.length; l++) {
        bound = Math.max(bound, load[l] / r.capacity[l]);
      }
      assertTrue(eta >= bound * (1 - 1e-9), "instance " + it + ": " + eta + " < " + bound);
      assertTrue(eta <= r.matrix.total() / Math.min(1, minCapacity(r.capacity)) * (1 + 1e-9));
    }
  }

  /** Fair sharing is perfect on a complete bipartite graph with equal amounts: the bound. */
  @Test
  void equalsTheBoundOnACompleteGraphWithEqualAmounts() {
    for (int n = 1; n <= 6; n++) {
      double[][] full = new double[n][n];
      for (double[] row : full) {
        Arrays.fill(row, 3.0);
      }
      for (int k = 1; k <= n + 1; k++) {
        TrafficMatrix m = TrafficMatrix.of(full);
        double bound = Math.max(m.total() / k, 3.0 * n);
        assertEquals(
            bound,
            LinkFairShareEstimator.estimate(m, LinkNetwork.flat(Platform.onePort(k, 0, n, n))),
            1e-9 * bound);
      }
    }
  }

  @Test
  void badInputIsNamed() {
    TrafficMatrix m = TrafficMatrix.of(new double[][] {{1}});
    LinkNetwork net = LinkNetwork.flat(Platform.onePort(1, 0, 1, 1));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> LinkFairShareEstimator.estimate(m, net, new double[] {1, 0, 1}));
    assertTrue(e.getMessage().contains("nic.up[0]"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> LinkFairShareEstimator.estimate(m, net, new double[] {1}));
    assertTrue(e.getMessage().contains("3 links"), e.getMessage());
    assertEquals(
        0.0, LinkFairShareEstimator.estimate(TrafficMatrix.of(new double[][] {{0}}), net), 0.0);
  }

  private static double minCapacity(double[] c) {
    return Arrays.stream(c).min().orElse(1);
  }

  /** A random two-site network with racks, fractional capacities and a random sparse matrix. */
  private record RandomNet(TrafficMatrix matrix, LinkNetwork network, double[] capacity) {
    static RandomNet of(Random random) {
      int rows = 1 + random.nextInt(6);
      int cols = 1 + random.nextInt(6);
      int racks = 1 + random.nextInt(2);
      LinkNetwork.Builder b = new LinkNetwork.Builder(rows, cols);
      int backbone = b.addLink("backbone", 1 + random.nextInt(4));
      int[] upRack = new int[racks];
      int[] downRack = new int[racks];
      for (int r = 0; r < racks; r++) {
        upRack[r] = b.addLink("rack.uplink[" + r + "]", 1 + random.nextInt(3));
        downRack[r] = b.addLink("rack.downlink[" + r + "]", 1 + random.nextInt(3));
      }
      int[] up = new int[rows];
      int[] down = new int[cols];
      for (int i = 0; i < rows; i++) {
        up[i] = b.addLink("nic.up[" + i + "]", 1);
      }
      for (int j = 0; j < cols; j++) {
        down[j] = b.addLink("nic.down[" + j + "]", 1);
      }
      double[][] a = new double[rows][cols];
      for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++) {
          b.route(
              i,
              j,
              new int[] {up[i], upRack[i % racks], backbone},
              new int[] {downRack[j % racks], down[j]});
          if (random.nextInt(3) > 0) {
            a[i][j] = 0.5 + random.nextInt(5);
          }
        }
      }
      int[] ds = new int[rows];
      int[] dr = new int[cols];
      Arrays.fill(ds, 1);
      Arrays.fill(dr, 1);
      LinkNetwork net = b.build(4, ds, dr, 0);
      double[] capacity = new double[net.linkCount()];
      for (int l = 0; l < capacity.length; l++) {
        capacity[l] = net.capacity(l) * (0.5 + random.nextDouble());
      }
      return new RandomNet(TrafficMatrix.of(a), net, capacity);
    }
  }
}
