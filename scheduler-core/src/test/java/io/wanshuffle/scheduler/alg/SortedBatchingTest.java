package io.wanshuffle.scheduler.alg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The radix sort behind {@link SortedBatching} against the JDK's comparison sort. */
class SortedBatchingTest {
  @Test
  void radixOrderEqualsComparisonSortByAmountDescendingThenIndex() {
    Random rnd = new Random(3);
    for (int it = 0; it < 300; it++) {
      int n = rnd.nextInt(300);
      double[] a = new double[n];
      for (int i = 0; i < n; i++) {
        a[i] = rnd.nextBoolean() ? 1 + rnd.nextInt(5) : rnd.nextDouble() * Math.pow(10, rnd.nextInt(12) - 4);
        if (a[i] <= 0) {
          a[i] = 1e-300;
        }
      }
      int[] expected = IntStream.range(0, n).boxed()
          .sorted(Comparator.<Integer>comparingDouble(i -> -a[i]).thenComparingInt(i -> i))
          .mapToInt(Integer::intValue).toArray();
      assertArrayEquals(expected, SortedBatching.byAmountDescending(a), Arrays.toString(a));
    }
  }
}
