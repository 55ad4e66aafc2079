package io.wanshuffle.it.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.wanshuffle.it.net.LinkTrace;
import io.wanshuffle.it.net.TestbedSpec;
import org.junit.jupiter.api.Test;

class TransferPhaseTest {
  /** 100 Mbit/s = 12.5 MB/s: 2.5 MB per 200 ms interval at full rate. */
  private static final long RATE = 100_000_000L;

  /** Samples every 200 ms from t = 0 with the given bytes per interval. */
  private static LinkTrace.Series series(long rate, long... perInterval) {
    long[] t = new long[perInterval.length + 1];
    long[] b = new long[perInterval.length + 1];
    for (int i = 0; i < perInterval.length; i++) {
      t[i + 1] = t[i] + 200;
      b[i + 1] = b[i] + perInterval[i];
    }
    return new LinkTrace.Series("backbone.out[/A]", rate, t, b, 0);
  }

  @Test
  void thePhaseLeavesOutTheIdleStartAndEndOfTheWindow() {
    // 0.4 s of control traffic, 1 s at 80 % and 90 %, 0.4 s idle again
    LinkTrace.Series s =
        series(RATE, 1_000, 1_000, 2_000_000, 2_000_000, 2_250_000, 2_250_000, 2_250_000, 500, 0);
    double expected = (2 * 2_000_000 + 3 * 2_250_000) * 8 / (RATE * 1.0);
    assertEquals(expected, TransferPhase.utilisation(s, 0, 1800), 1e-12);
    // over the whole window (what the reduce stage's utilisation counts) it is lower
    assertEquals(0.478, s.bytes(0, 1800) * 8 / (RATE * 1.8), 1e-3);
  }

  @Test
  void theWindowBoundsThePhase() {
    LinkTrace.Series s = series(RATE, 2_500_000, 2_500_000, 1_250_000, 1_250_000);
    assertEquals(0.5, TransferPhase.utilisation(s, 400, 800), 1e-12);
    assertEquals(0.75, TransferPhase.utilisation(s, 0, 800), 1e-12);
  }

  @Test
  void anUnshapedOrIdleLinkHasNoPhase() {
    assertNull(TransferPhase.utilisation(series(TestbedSpec.UNSHAPED, 2_500_000), 0, 200));
    assertNull(TransferPhase.utilisation(series(RATE, 1_000, 40_000), 0, 400), "under 2 %");
    assertNull(TransferPhase.utilisation(series(RATE, 2_500_000), 500, 900), "outside it");
  }
}
