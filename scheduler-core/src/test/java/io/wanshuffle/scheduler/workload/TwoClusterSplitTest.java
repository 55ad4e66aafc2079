package io.wanshuffle.scheduler.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.workload.TwoClusterSplit.Direction;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TwoClusterSplitTest {
  private static final double MB = TwoClusterSplit.BYTES_PER_MB;

  @Test
  void halvesOfTheFacebookFabric() {
    TwoClusterSplit s = TwoClusterSplit.halves(150);
    assertEquals(75, s.firstRackOfB());
    assertTrue(s.inA(0));
    assertTrue(s.inA(74));
    assertTrue(!s.inA(75));
    assertTrue(!s.inA(149));
    assertThrows(IllegalArgumentException.class, () -> s.inA(150));
  }

  @Test
  void rejectsSplitsWithAnEmptyCluster() {
    assertThrows(IllegalArgumentException.class, () -> new TwoClusterSplit(150, 0));
    assertThrows(IllegalArgumentException.class, () -> new TwoClusterSplit(150, 150));
    assertThrows(IllegalArgumentException.class, () -> new TwoClusterSplit(1, 1));
  }

  @Test
  void spreadsEachReducerEvenlyOverItsMappers() {
    // racks 0,1 = A; 2,3 = B. Mappers 0, 1, 2, 0 (rack 0 twice). Reducers 3: 8 MB, 1: 4 MB, 2: 0.
    Coflow c =
        new Coflow(9, 0, new int[] {0, 1, 2, 0}, new int[] {3, 1, 2}, new double[] {8, 4, 0});
    TwoClusterSplit s = new TwoClusterSplit(4, 2);
    CrossClusterShuffle ab = s.crossCluster(c, Direction.A_TO_B).orElseThrow();
    assertEquals(9, ab.coflowId());
    assertArrayEquals(new int[] {0, 1}, ab.senderRacks());
    assertArrayEquals(new int[] {3}, ab.receiverRacks()); // reducer 2 gets 0 MB: no column
    assertEquals(TrafficMatrix.of(new double[][] {{4 * MB}, {2 * MB}}), ab.bytes());
    assertEquals(List.of("rack-0", "rack-1"), ab.senderNames());
    assertEquals(List.of("rack-3"), ab.receiverNames());
    CrossClusterShuffle ba = s.crossCluster(c, Direction.B_TO_A).orElseThrow();
    assertArrayEquals(new int[] {2}, ba.senderRacks());
    assertArrayEquals(new int[] {1}, ba.receiverRacks());
    assertEquals(TrafficMatrix.of(new double[][] {{1 * MB}}), ba.bytes());
    assertEquals(TrafficMatrix.of(new double[][] {{1.0}}), ba.seconds(MB));
  }

  @Test
  void noCrossClusterTrafficGivesEmpty() {
    Coflow inA = new Coflow(1, 0, new int[] {0}, new int[] {1}, new double[] {5});
    TwoClusterSplit s = new TwoClusterSplit(4, 2);
    assertEquals(Optional.empty(), s.crossCluster(inA, Direction.A_TO_B));
    assertEquals(Optional.empty(), s.crossCluster(inA, Direction.B_TO_A));
  }

  @Test
  void rackOutsideTheSplitIsRejected() {
    Coflow c = new Coflow(1, 0, new int[] {7}, new int[] {1}, new double[] {5});
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new TwoClusterSplit(4, 2).crossCluster(c, Direction.A_TO_B));
    assertEquals("rack 7 is outside 0..3", e.getMessage());
  }

  @Test
  void facebookTraceConservesBytes() throws IOException {
    Path file = FacebookTrace.require();
    CoflowTrace t = CoflowTrace.parse(file);
    TwoClusterSplit s = TwoClusterSplit.halves(t.racks());
    int withTraffic = 0;
    for (Coflow c : t.coflows()) {
      double expectedAb = 0;
      double expectedBa = 0;
      int[] mappers = c.mapperRacks();
      int[] reducers = c.reducerRacks();
      double[] mb = c.reducerMegabytes();
      for (int r = 0; r < reducers.length; r++) {
        for (int m : mappers) {
          double share = mb[r] * MB / mappers.length;
          if (m < 75 && reducers[r] >= 75) {
            expectedAb += share;
          } else if (m >= 75 && reducers[r] < 75) {
            expectedBa += share;
          }
        }
      }
      Optional<CrossClusterShuffle> ab = s.crossCluster(c, Direction.A_TO_B);
      Optional<CrossClusterShuffle> ba = s.crossCluster(c, Direction.B_TO_A);
      assertEquals(expectedAb, ab.map(x -> x.bytes().total()).orElse(0.0), 1e-6 * expectedAb);
      assertEquals(expectedBa, ba.map(x -> x.bytes().total()).orElse(0.0), 1e-6 * expectedBa);
      if (ab.isPresent()) {
        withTraffic++;
        CrossClusterShuffle x = ab.get();
        for (int r : x.senderRacks()) {
          assertTrue(r < 75, "sender rack " + r + " of coflow " + c.id() + " is in A");
        }
        for (int r : x.receiverRacks()) {
          assertTrue(r >= 75, "receiver rack " + r + " of coflow " + c.id() + " is in B");
        }
        for (int i = 0; i < x.bytes().rows(); i++) {
          assertTrue(x.bytes().rowSum(i) > 0, "no empty row");
        }
        for (int j = 0; j < x.bytes().cols(); j++) {
          assertTrue(x.bytes().colSum(j) > 0, "no empty column");
        }
      }
    }
    assertTrue(withTraffic > 100, "many coflows cross the split, got " + withTraffic);
    // coflow 3 (line 4: "3 13122 2 66 138 1 38:4.0"): only 138 -> 38 crosses, B to A, 2 MB
    Coflow third = t.coflows().get(2);
    assertEquals(Optional.empty(), s.crossCluster(third, Direction.A_TO_B));
    CrossClusterShuffle x = s.crossCluster(third, Direction.B_TO_A).orElseThrow();
    assertArrayEquals(new int[] {138}, x.senderRacks());
    assertArrayEquals(new int[] {38}, x.receiverRacks());
    assertEquals(2 * MB, x.bytes().amount(0, 0));
  }
}
