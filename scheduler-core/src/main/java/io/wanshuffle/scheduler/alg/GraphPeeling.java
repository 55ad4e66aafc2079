package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.scheduler.matching.Peeler;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The common core of GGP, OGGP and DGGP (GGP/OGGP paper, Fig. 4): round the weights up to whole
 * quanta (step 1), build the weight-regular graph J ({@link WeightRegularGraph}, steps 2-3), peel
 * it ({@link Peeler}, step 5) and keep only the real edges of each matching (step 6).
 *
 * <p>Output steps carry real amounts: the rounding surplus is never sent (the last piece of an edge
 * is what is left of it), a step's duration is its longest real transfer, and a matching with no
 * real edge gives no step. The graph edges may map several-to-one onto traffic-matrix pairs (DGGP's
 * split nodes); pieces of one pair in one matching are merged into one transfer.
 */
final class GraphPeeling {
  private GraphPeeling() {}

  /**
   * Peels the bipartite graph of a traffic matrix itself (no node splitting): GGP or OGGP.
   *
   * @param m traffic matrix, seconds
   * @param k transfers per step
   * @param quantum seconds per weight unit
   * @param bottleneck OGGP (true) or GGP (false)
   * @return the schedule
   */
  static Schedule peelMatrix(TrafficMatrix m, int k, double quantum, boolean bottleneck) {
    int nz = m.nonZeroCount();
    int[] row = new int[nz];
    int[] col = new int[nz];
    double[] amount = new double[nz];
    int c = 0;
    for (int i = 0; i < m.rows(); i++) {
      for (int x = 0; x < m.rowDegree(i); x++) {
        row[c] = i;
        col[c] = m.nonZeroCol(i, x);
        amount[c] = m.nonZeroAmount(i, x);
        c++;
      }
    }
    return peel(m.rows(), m.cols(), row, col, amount, row, col, m.cols(), k, quantum, bottleneck);
  }

  /**
   * @param rows senders of the peeled graph
   * @param cols receivers of the peeled graph
   * @param row sender of each edge in the peeled graph
   * @param col receiver of each edge in the peeled graph
   * @param amount seconds of each edge, &gt; 0
   * @param pairRow traffic-matrix sender each edge belongs to
   * @param pairCol traffic-matrix receiver each edge belongs to
   * @param matrixCols columns of the traffic matrix
   * @param k transfers per step
   * @param quantum seconds per weight unit, &gt; 0
   * @param bottleneck true: OGGP's max-min matchings (Fig. 9); false: any perfect matching (GGP)
   * @return the schedule, steps in peeling order
   */
  static Schedule peel(
      int rows,
      int cols,
      int[] row,
      int[] col,
      double[] amount,
      int[] pairRow,
      int[] pairCol,
      int matrixCols,
      int k,
      double quantum,
      boolean bottleneck) {
    int m = row.length;
    if (m == 0) {
      return new Schedule(List.of());
    }
    long[] units = new long[m];
    for (int e = 0; e < m; e++) {
      units[e] = Quantum.units(amount[e], quantum);
    }
    WeightRegularGraph j = WeightRegularGraph.build(rows, cols, row, col, units, k);
    Peeler peeler = new Peeler(j.graph, bottleneck);
    double[] rem = amount.clone();
    int[] matching = new int[j.graph.leftCount()];
    List<Step> steps = new ArrayList<>();
    int[] slotOfPair = new int[0];
    int[] stampOfPair = new int[0];
    boolean mayRepeat = pairRow != row || pairCol != col;
    if (mayRepeat) {
      int pairs = 0;
      for (int e = 0; e < m; e++) {
        pairs = Math.max(pairs, pairRow[e] * matrixCols + pairCol[e] + 1);
      }
      slotOfPair = new int[pairs];
      stampOfPair = new int[pairs];
    }
    int stepNo = 0;
    int[] srcs =
        new int[Math.max(1, Math.min(k, m))]; // a step has at most k transfers and at most m
    int[] dsts = new int[srcs.length];
    double[] amts = new double[srcs.length];
    while (peeler.hasEdges()) {
      long a = peeler.peel(matching);
      double quantumAmount = a * quantum;
      stepNo++;
      int cnt = 0;
      for (int e : matching) {
        if (e >= j.realEdges || rem[e] <= 0) {
          continue;
        }
        double piece = j.graph.weight(e) == 0 ? rem[e] : Math.min(quantumAmount, rem[e]);
        rem[e] -= piece;
        if (j.graph.weight(e) == 0) {
          rem[e] = 0;
        }
        if (!(piece > 0)) {
          continue;
        }
        int pr = pairRow[e];
        int pc = pairCol[e];
        if (mayRepeat) {
          int key = pr * matrixCols + pc;
          if (stampOfPair[key] == stepNo) {
            amts[slotOfPair[key]] += piece;
            continue;
          }
          stampOfPair[key] = stepNo;
          slotOfPair[key] = cnt;
        }
        if (cnt == srcs.length) {
          srcs = Arrays.copyOf(srcs, cnt * 2);
          dsts = Arrays.copyOf(dsts, cnt * 2);
          amts = Arrays.copyOf(amts, cnt * 2);
        }
        srcs[cnt] = pr;
        dsts[cnt] = pc;
        amts[cnt] = piece;
        cnt++;
      }
      if (cnt == 0) {
        continue;
      }
      List<Transfer> ts = new ArrayList<>(cnt);
      for (int i = 0; i < cnt; i++) {
        ts.add(new Transfer(srcs[i], dsts[i], amts[i]));
      }
      steps.add(Step.of(ts));
    }
    return new Schedule(steps);
  }
}
