package io.wanshuffle.spark.measure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class LinkSharingTest {
  private static MeasuredFlow f(long start, long end) {
    return new MeasuredFlow("a", "b", 1, 0, start, end);
  }

  @Test
  void overlappingFlowsShareTheLinkWhileBothRun() {
    // n = 1 on [0, 500), 2 on [500, 1000), 1 on [1000, 1500)
    double[] s = LinkSharing.shareSeconds(List.of(f(0, 1000), f(500, 1500)));
    assertArrayEquals(new double[] {0.75, 0.75}, s, 1e-12);
  }

  @Test
  void aFlowAloneHasItsActiveTimeAndGapsCountForNobody() {
    double[] s = LinkSharing.shareSeconds(List.of(f(0, 200), f(1000, 1400), f(1000, 1200)));
    assertArrayEquals(new double[] {0.2, 0.3, 0.1}, s, 1e-12);
  }
}
