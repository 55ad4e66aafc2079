package io.wanshuffle.scheduler.alg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The unit of a traffic matrix does not matter: the same matrix in picoseconds, microseconds,
 * seconds or megaseconds is carried in full by every algorithm, every pair's pieces adding up to
 * its amount within a relative 1e-9 (checked here from the pieces, not by {@link
 * Schedule#validate}). Found by the second fuzzing pass: {@code auto} lost up to 15 % of pairs of
 * about 1e-12 s (an absolute epsilon in its compaction step), and validation, absolute below 1 s,
 * did not see it.
 */
class UnitIndependenceTest {
  /**
   * The fuzzing pass's case: 54 x 38, amounts 1e-14 .. 8e-12 s, k = 38 (auto lost 14.7 % of a
   * pair).
   */
  @Test
  void aMatrixOfPicosecondsIsCarriedInFull() throws java.io.IOException {
    java.util.List<double[]> rows = new java.util.ArrayList<>();
    try (var in = getClass().getResourceAsStream("picosecond-matrix.csv")) {
      for (String line :
          new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).split("\n")) {
        if (!line.isBlank()) {
          rows.add(
              java.util.Arrays.stream(line.split(","))
                  .mapToDouble(v -> Math.abs(Double.parseDouble(v)))
                  .toArray());
        }
      }
    }
    TrafficMatrix m = TrafficMatrix.of(rows.toArray(new double[0][]));
    Platform p = Platform.onePort(38, 0, m.rows(), m.cols());
    for (String name : Algorithms.names()) {
      if (!name.equals("exact")) {
        checkCarried(name, "picoseconds", m, Algorithms.byName(name).schedule(m, p));
      }
    }
  }

  private static void checkCarried(String name, String unit, TrafficMatrix m, Schedule s) {
    double[][] got = new double[m.rows()][m.cols()];
    for (Step st : s.steps()) {
      for (Transfer t : st.transfers()) {
        got[t.src()][t.dst()] += t.amount();
      }
    }
    for (int i = 0; i < m.rows(); i++) {
      for (int j = 0; j < m.cols(); j++) {
        assertEquals(
            m.amount(i, j),
            got[i][j],
            1e-9 * m.amount(i, j),
            name + " at unit " + unit + ": pair " + i + "->" + j);
      }
    }
  }

  @Test
  void everyPairIsCarriedInFullWhateverTheUnit() {
    Random rnd = new Random(54);
    double[][] base = new double[54][38];
    for (double[] row : base) {
      for (int j = 0; j < row.length; j++) {
        row[j] =
            rnd.nextInt(5) != 0 ? 0 : Math.pow(10, 3 * rnd.nextDouble()) * (1 + rnd.nextDouble());
      }
    }
    for (double unit : new double[] {1e-15, 1e-9, 1e-3, 1, 1e6}) {
      double[][] a = new double[base.length][];
      for (int i = 0; i < a.length; i++) {
        a[i] = base[i].clone();
        for (int j = 0; j < a[i].length; j++) {
          a[i][j] *= unit;
        }
      }
      TrafficMatrix m = TrafficMatrix.of(a);
      Platform p = Platform.onePort(38, 0, 54, 38);
      for (String name : Algorithms.names()) {
        if (name.equals("exact")) {
          continue;
        }
        Schedule s = Algorithms.byName(name).schedule(m, p);
        checkCarried(name, "" + unit, m, s);
        s.validate(m, p);
      }
    }
  }
}
