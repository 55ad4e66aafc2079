package io.wanshuffle.spark.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RobustTest {
  @Test
  void medianAndQuantiles() {
    assertEquals(2, Robust.median(new double[] {3, 1, 2}), 0);
    assertEquals(2.5, Robust.median(new double[] {4, 1, 2, 3}), 0);
    assertEquals(1.3, Robust.quantile(new double[] {1, 2, 3, 4}, 0.1), 1e-12);
    assertTrue(Double.isNaN(Robust.median(new double[0])));
  }

  @Test
  void theilSenIgnoresAFewOutliers() {
    double[] x = new double[10];
    double[] y = new double[10];
    for (int i = 0; i < 10; i++) {
      x[i] = i;
      y[i] = 0.5 + 2 * i;
    }
    y[3] = 100;
    y[7] = -50;
    Robust.Line l = Robust.theilSen(x, y, 0);
    assertEquals(2, l.slope(), 1e-12);
    assertEquals(0.5, l.intercept(), 1e-12);
  }

  @Test
  void theilSenNeedsPointsFarEnoughApart() {
    assertNull(Robust.theilSen(new double[] {1, 1.01}, new double[] {1, 2}, 0.1));
    assertThrows(
        IllegalArgumentException.class,
        () -> Robust.theilSen(new double[] {1}, new double[] {1, 2}, 0));
  }
}
