package io.wanshuffle.scheduler.testing;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.Arrays;

/**
 * One KPBS instance for tests: a traffic matrix (seconds), a platform whose shape matches it, and a
 * description that reproduces it in failure messages.
 *
 * @param matrix amounts in seconds, senders x receivers
 * @param platform k, β, δ
 * @param description seed, index and parameters the generator used
 */
public record Instance(TrafficMatrix matrix, Platform platform, String description) {
  /**
   * @return the description plus the amounts, for assertion messages
   */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(description).append(' ').append(platform).append(" [");
    for (int i = 0; i < matrix.rows(); i++) {
      double[] row = new double[matrix.cols()];
      for (int j = 0; j < row.length; j++) {
        row[j] = matrix.amount(i, j);
      }
      b.append(i == 0 ? "" : "; ").append(Arrays.toString(row));
    }
    return b.append(']').toString();
  }
}
