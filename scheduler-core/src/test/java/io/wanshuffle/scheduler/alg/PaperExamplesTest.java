package io.wanshuffle.scheduler.alg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.BaseSpeed;
import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.TrafficMatrix;
import org.junit.jupiter.api.Test;

/**
 * Worked examples of the papers: the DGGP paper's running example (Jeannot, Wagner, sec. 2.3-2.5,
 * Fig. 2-4) and the brute-force example of RR-5361 (Wagner, Jeannot, sec. 3.1, Fig. 3-5).
 */
class PaperExamplesTest {
  private static final double MBIT = 1e6 / 8;

  /** DGGP paper sec. 2.3-2.5: 700/300/0/100 Mbit, NICs 300/200 and 100/300 Mbit/s, backbone 200. */
  static TrafficMatrix dggpExampleSeconds(BaseSpeed b) {
    TrafficMatrix bytes =
        TrafficMatrix.of(new double[][] {{700 * MBIT, 300 * MBIT}, {0, 100 * MBIT}});
    return b.toSeconds(bytes);
  }

  static BaseSpeed dggpBaseSpeed() {
    long mbps = 1_000_000 / 8;
    return BaseSpeed.of(
        200 * mbps, new long[] {300 * mbps, 200 * mbps}, new long[] {100 * mbps, 300 * mbps});
  }

  @Test
  void dggpRunningExampleGgpFamilyAndAutoAreValid() {
    BaseSpeed b = dggpBaseSpeed();
    Platform p = b.platform(1.0);
    TrafficMatrix m = dggpExampleSeconds(b);
    assertEquals(2, p.k());
    assertEquals(7.0, m.amount(0, 0), 1e-12);
    double eta = LowerBound.of(m, p).eta();
    assertEquals(9.0, eta, 1e-9);
    for (String name : new String[] {"auto", "ggp", "oggp", "dggp"}) {
      Schedule s = Algorithms.byName(name).schedule(m, p);
      s.validate(m, p);
      assertTrue(s.cost(1.0) >= eta - 1e-9, name + " beats the lower bound?");
    }
  }

  @Test
  void dggpRunningExampleDggpUsesTheSecondPort() {
    BaseSpeed b = dggpBaseSpeed();
    Platform p = b.platform(1.0);
    TrafficMatrix m = dggpExampleSeconds(b);
    Schedule dggp = new Dggp().schedule(m, p);
    Schedule oggp = new Oggp().schedule(m, p);
    dggp.validate(m, p);
    // 1-port OGGP needs 3 steps (sender 1 has two transfers, one of 7 s): 7 + 3 + 1 + 3β ≥ 13.
    assertTrue(oggp.cost(1.0) >= 13 - 1e-9, "oggp " + oggp.cost(1.0));
    assertTrue(dggp.cost(1.0) < oggp.cost(1.0), "dggp " + dggp.cost(1.0));
  }
}
