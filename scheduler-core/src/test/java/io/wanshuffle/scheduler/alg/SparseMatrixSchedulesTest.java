package io.wanshuffle.scheduler.alg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.scheduler.online.GreedyFirstStep;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Every algorithm plans a {@link TrafficMatrix} stored as its non-zero cells exactly as it planned
 * the same matrix stored dense: on random matrices of every density (one cell in fifty to full,
 * amounts over eight orders of magnitude, 1-port and δ-port), each algorithm's schedules, step by
 * step, transfer by transfer and bit by bit of each amount, hash to the fingerprint recorded from
 * the dense (row-major doubles) storage. A pass over the cells in another order, a lost or extra
 * cell or a sum in another order changes the fingerprint.
 */
class SparseMatrixSchedulesTest {
  /** Fingerprints of the schedules planned on the dense storage, per algorithm. */
  private static final Map<String, Long> DENSE =
      Map.ofEntries(
          Map.entry("auto", -7632469044317000508L),
          Map.entry("ggp", 5094186941856885185L),
          Map.entry("oggp", -8147145276937063882L),
          Map.entry("dggp", 1316891235274449499L),
          Map.entry("heuristic-weights", -2026428234412115631L),
          Map.entry("heuristic-degrees", 2458928734689682145L),
          Map.entry("exact", -6015934959854181487L),
          Map.entry("liquid", -7632469044317000508L),
          Map.entry("greedy", -7367336957752220728L));

  @Test
  void everyAlgorithmPlansTheSparseMatrixAsTheDenseOne() {
    assertEquals(DENSE, fingerprints());
  }

  @Test
  void theMatrixIsTheSameWhicheverWayItIsBuilt() {
    for (Instance in : instances()) {
      TrafficMatrix m = in.matrix();
      int rows = m.rows();
      int cols = m.cols();
      // its cells in reverse order, with some zero cells among them
      List<int[]> cells = new ArrayList<>();
      for (int i = rows - 1; i >= 0; i--) {
        for (int j = cols - 1; j >= 0; j--) {
          if (m.amount(i, j) > 0 || (i + j) % 7 == 0) {
            cells.add(new int[] {i, j});
          }
        }
      }
      int[] r = new int[cells.size()];
      int[] c = new int[cells.size()];
      double[] a = new double[cells.size()];
      for (int e = 0; e < r.length; e++) {
        r[e] = cells.get(e)[0];
        c[e] = cells.get(e)[1];
        a[e] = m.amount(r[e], c[e]);
      }
      TrafficMatrix fromCells = TrafficMatrix.ofCells(rows, cols, r, c, a);
      TrafficMatrix fromRowMajor = TrafficMatrix.ofRowMajor(rows, cols, m.toRowMajor());
      assertEquals(m, fromCells);
      assertEquals(m, fromRowMajor);
      assertEquals(m.hashCode(), fromCells.hashCode());
      for (int i = 0; i < rows; i++) {
        assertEquals(m.rowSum(i), fromCells.rowSum(i), 0.0);
      }
      for (int j = 0; j < cols; j++) {
        assertEquals(m.colSum(j), fromCells.colSum(j), 0.0);
      }
      assertEquals(m.total(), fromCells.total(), 0.0);
    }
  }

  /** The fingerprint of every algorithm's schedules over the random instances. */
  static Map<String, Long> fingerprints() {
    Map<String, Long> out = new LinkedHashMap<>();
    List<String> names = new ArrayList<>(DENSE.keySet());
    names.sort(null);
    for (String name : names) {
      long h = 17;
      for (Instance in : instances()) {
        if (name.equals("exact") && in.matrix().nonZeroCount() > 6) {
          continue;
        }
        StepScheduler s = name.equals("greedy") ? new GreedyFirstStep() : Algorithms.byName(name);
        h = 31 * h + fingerprint(s.schedule(in.matrix(), in.platform()));
      }
      out.put(name, h);
    }
    return out;
  }

  private static long fingerprint(Schedule s) {
    long h = s.steps().size();
    for (Step st : s.steps()) {
      h = 31 * h + Double.doubleToLongBits(st.duration());
      for (Transfer t : st.transfers()) {
        h = 31 * h + t.src();
        h = 31 * h + t.dst();
        h = 31 * h + Double.doubleToLongBits(t.amount());
      }
    }
    return h;
  }

  private record Instance(TrafficMatrix matrix, Platform platform) {}

  private static List<Instance> instances() {
    SplittableRandom rnd = new SplittableRandom(20261127);
    List<Instance> out = new ArrayList<>();
    double[] densities = {0.02, 0.1, 0.3, 0.7, 1.0};
    for (int t = 0; t < 60; t++) {
      int rows = 1 + rnd.nextInt(t < 20 ? 3 : 30);
      int cols = 1 + rnd.nextInt(t < 20 ? 3 : 30);
      double density = densities[t % densities.length];
      double[][] a = new double[rows][cols];
      boolean any = false;
      for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++) {
          if (rnd.nextDouble() < density) {
            a[i][j] = (0.5 + rnd.nextDouble()) * Math.pow(10, rnd.nextInt(8) - 4);
            any = true;
          }
        }
      }
      if (!any) {
        a[rnd.nextInt(rows)][rnd.nextInt(cols)] = 1;
      }
      int k = 1 + rnd.nextInt(Math.min(rows, cols) + 1);
      double beta = new double[] {0, 0.001, 0.1, 1}[rnd.nextInt(4)];
      int[] sd = new int[rows];
      int[] rd = new int[cols];
      boolean deltaPort = t % 2 == 1;
      for (int i = 0; i < rows; i++) {
        sd[i] = deltaPort ? 1 + rnd.nextInt(3) : 1;
      }
      for (int j = 0; j < cols; j++) {
        rd[j] = deltaPort ? 1 + rnd.nextInt(3) : 1;
      }
      out.add(new Instance(TrafficMatrix.of(a), Platform.of(k, beta, sd, rd)));
    }
    return out;
  }
}
