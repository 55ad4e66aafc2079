package io.wanshuffle.scheduler.alg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.scheduler.topology.LinkCapacityValidator;
import io.wanshuffle.scheduler.topology.LinkNetwork;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link SortedBatching}: the radix sort against the JDK's comparison sort, and the batches against
 * the greedy rule they implement, checked from the schedule alone.
 */
class SortedBatchingTest {
  @Test
  void radixOrderEqualsComparisonSortByAmountDescendingThenIndex() {
    Random rnd = new Random(3);
    for (int it = 0; it < 300; it++) {
      int n = rnd.nextInt(300);
      double[] a = new double[n];
      for (int i = 0; i < n; i++) {
        a[i] =
            rnd.nextBoolean()
                ? 1 + rnd.nextInt(5)
                : rnd.nextDouble() * Math.pow(10, rnd.nextInt(12) - 4);
        if (a[i] <= 0) {
          a[i] = 1e-300;
        }
      }
      int[] expected =
          IntStream.range(0, n)
              .boxed()
              .sorted(Comparator.<Integer>comparingDouble(i -> -a[i]).thenComparingInt(i -> i))
              .mapToInt(Integer::intValue)
              .toArray();
      assertArrayEquals(expected, SortedBatching.byAmountDescending(a), Arrays.toString(a));
    }
  }

  /** Random racks per side; rack links of 1-3 flows, backbone directions of 2-6, NICs of 1-2. */
  private static LinkNetwork randomNetwork(Random rnd, int rows, int cols) {
    LinkNetwork.Builder b = new LinkNetwork.Builder(rows, cols);
    int outFlows = 2 + rnd.nextInt(5);
    int inFlows = 2 + rnd.nextInt(5);
    int out = b.addLink("backbone.out", outFlows);
    int in = b.addLink("backbone.in", inFlows);
    int racksA = 1 + rnd.nextInt(3);
    int racksB = 1 + rnd.nextInt(3);
    int[] up = new int[racksA];
    int[] down = new int[racksB];
    for (int r = 0; r < racksA; r++) {
      up[r] = b.addLink("up" + r, 1 + rnd.nextInt(3));
    }
    for (int r = 0; r < racksB; r++) {
      down[r] = b.addLink("down" + r, 1 + rnd.nextInt(3));
    }
    int[] nicUp = new int[rows];
    int[] nicDown = new int[cols];
    int[] ds = new int[rows];
    int[] dr = new int[cols];
    for (int i = 0; i < rows; i++) {
      ds[i] = 1 + rnd.nextInt(2);
      nicUp[i] = b.addLink("nu" + i, ds[i]);
    }
    for (int j = 0; j < cols; j++) {
      dr[j] = 1 + rnd.nextInt(2);
      nicDown[j] = b.addLink("nd" + j, dr[j]);
    }
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        b.route(
            i,
            j,
            new int[] {nicUp[i], up[i % racksA], out},
            new int[] {in, down[j % racksB], nicDown[j]});
      }
    }
    return b.build(Math.min(outFlows, inFlows), ds, dr, 0);
  }

  private static TrafficMatrix randomMatrix(Random rnd, int rows, int cols) {
    double[][] a = new double[rows][cols];
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        a[i][j] = rnd.nextInt(3) == 0 ? 0 : 1 + rnd.nextInt(rnd.nextBoolean() ? 5 : 1000);
      }
    }
    a[rnd.nextInt(rows)][rnd.nextInt(cols)] = 7;
    return TrafficMatrix.of(a);
  }

  private static boolean fitsInto(Step step, Transfer t, LinkNetwork net, int k) {
    if (step.transfers().size() >= k) {
      return false;
    }
    int[] use = new int[net.linkCount()];
    for (Transfer u : step.transfers()) {
      for (int l : net.route(u.src(), u.dst())) {
        use[l]++;
      }
    }
    for (int l : net.route(t.src(), t.dst())) {
      if (use[l] >= net.capacity(l)) {
        return false;
      }
    }
    return true;
  }

  @Test
  void batchesOnALinkNetworkAreValidAndNoTransferCouldHaveJoinedAnEarlierStep() {
    Random rnd = new Random(17);
    for (int it = 0; it < 200; it++) {
      int rows = 1 + rnd.nextInt(9);
      int cols = 1 + rnd.nextInt(9);
      LinkNetwork net = randomNetwork(rnd, rows, cols);
      TrafficMatrix m = randomMatrix(rnd, rows, cols);
      Platform p = net.platform(rnd.nextInt(3));
      LinkNetwork constrained = net.constrainedBy(p);
      Schedule s = SortedBatching.schedule(m, p, constrained);
      s.validate(m, p);
      LinkCapacityValidator.validate(s, m, net);
      List<Step> steps = s.steps();
      assertEquals(
          m.nonZeroCount(),
          steps.stream().mapToInt(st -> st.transfers().size()).sum(),
          "every transfer in one piece");
      // the greedy rule: a step's scan saw every transfer still unsent, so a transfer sent later
      // would have been taken if it fitted into the step as it ended (use only grows in a scan)
      for (int a = 0; a < steps.size(); a++) {
        for (int later = a + 1; later < steps.size(); later++) {
          for (Transfer t : steps.get(later).transfers()) {
            assertTrue(
                !fitsInto(steps.get(a), t, net, p.k()),
                "step " + a + " had room for " + t + " (sent in step " + later + ")");
          }
        }
      }
    }
  }

  /** The rule written plainly: sort, then each step rescans every unsent transfer. O(m²). */
  private static List<List<Transfer>> naiveBatches(TrafficMatrix m, Platform p) {
    List<Transfer> left = new java.util.ArrayList<>();
    for (int i = 0; i < m.rows(); i++) {
      for (int j = 0; j < m.cols(); j++) {
        if (m.amount(i, j) > 0) {
          left.add(new Transfer(i, j, m.amount(i, j)));
        }
      }
    }
    left.sort(Comparator.comparingDouble(Transfer::amount).reversed()); // stable: row-major ties
    List<List<Transfer>> steps = new java.util.ArrayList<>();
    while (!left.isEmpty()) {
      int[] sUse = new int[m.rows()];
      int[] rUse = new int[m.cols()];
      List<Transfer> step = new java.util.ArrayList<>();
      for (java.util.Iterator<Transfer> it = left.iterator();
          it.hasNext() && step.size() < p.k(); ) {
        Transfer t = it.next();
        if (sUse[t.src()] < p.senderPorts(t.src()) && rUse[t.dst()] < p.receiverPorts(t.dst())) {
          sUse[t.src()]++;
          rUse[t.dst()]++;
          step.add(t);
          it.remove();
        }
      }
      steps.add(step);
    }
    return steps;
  }

  @Test
  void batchesOnAPlatformEqualThePlainRule() {
    Random rnd = new Random(29);
    for (int it = 0; it < 300; it++) {
      int rows = 1 + rnd.nextInt(12);
      int cols = 1 + rnd.nextInt(12);
      TrafficMatrix m = randomMatrix(rnd, rows, cols);
      int[] ds = new int[rows];
      int[] dr = new int[cols];
      Arrays.setAll(ds, i -> 1 + rnd.nextInt(3));
      Arrays.setAll(dr, j -> 1 + rnd.nextInt(3));
      Platform p =
          rnd.nextBoolean()
              ? Platform.onePort(1 + rnd.nextInt(6), 1, rows, cols)
              : Platform.of(1 + rnd.nextInt(10), 1, ds, dr);
      List<List<Transfer>> got =
          SortedBatching.schedule(m, p).steps().stream().map(Step::transfers).toList();
      assertEquals(naiveBatches(m, p), got, m.toString());
    }
  }

  @Test
  void aSingleSenderIsSentOneTransferPerStepHeaviestFirst() {
    int n = 50_000;
    double[][] a = new double[1][n];
    for (int j = 0; j < n; j++) {
      a[0][j] = 1 + (j * 7919L) % 1000;
    }
    TrafficMatrix m = TrafficMatrix.of(a);
    Platform p = Platform.onePort(8, 0.1, 1, n);
    Schedule s = SortedBatching.schedule(m, p);
    s.validate(m, p);
    assertEquals(n, s.stepCount());
    for (int x = 1; x < n; x++) {
      assertTrue(s.steps().get(x - 1).duration() >= s.steps().get(x).duration());
    }
  }

  @Test
  void piecesAreValidSchedulesOfAtMostTheirLengthOnOneAndDeltaPort() {
    Random rnd = new Random(17);
    for (int it = 0; it < 400; it++) {
      int rows = 1 + rnd.nextInt(8);
      int cols = 1 + rnd.nextInt(8);
      TrafficMatrix m = Instances.matrix(rnd, rows, cols, 1 + rnd.nextInt(50), rnd.nextBoolean());
      int k = 1 + rnd.nextInt(6);
      Platform p =
          rnd.nextBoolean()
              ? Platform.onePort(k, 0.5, rows, cols)
              : Instances.deltaPort(rnd, k, 0.5, rows, cols, 3);
      double piece = m.maxAmount() > 0 ? m.maxAmount() / (1 + rnd.nextInt(9)) : 1;
      SortedBatching.Batches b = SortedBatching.batchInPieces(m, p, piece);
      Schedule s = b.toSchedule();
      s.validate(m, p); // covers every amount, no pair twice in a step, ports and k respected
      assertEquals(s.cost(0.5), b.cost(0.5), 1e-9 * (1 + s.cost(0.5)));
      for (Step st : s.steps()) {
        for (Transfer t : st.transfers()) {
          assertTrue(t.amount() <= piece * (1 + 1e-6), t + " longer than a piece of " + piece);
        }
      }
      Schedule whole = SortedBatching.schedule(m, p);
      Schedule cut = PreemptiveBatching.schedule(m, p, whole);
      cut.validate(m, p);
      assertTrue(cut.cost(0.5) <= whole.cost(0.5) * (1 + 1e-12));
    }
  }

  /**
   * k = 2, β = 0, 1-port, four disjoint pairs of 8, 1, 1 and 1 s: whole, the 8 s transfer's step
   * lasts 8 s beside a 1 s one (cost 9); cut into pieces of 2 s it runs beside the three short ones
   * and alone for its last piece, 8 s in all, its own length (the optimum).
   */
  @Test
  void cuttingALongTransferLetsItRunBesideTheShortOnes() {
    TrafficMatrix m =
        TrafficMatrix.of(new double[][] {{8, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}});
    Platform p = Platform.onePort(2, 0, 4, 4);
    assertEquals(9, SortedBatching.schedule(m, p).cost(0), 1e-12);
    assertEquals(8, SortedBatching.batchInPieces(m, p, 2).cost(0), 1e-12);
    Schedule whole = SortedBatching.schedule(m, p);
    assertEquals(8, PreemptiveBatching.schedule(m, p, whole).cost(0), 1e-12);
  }
}
