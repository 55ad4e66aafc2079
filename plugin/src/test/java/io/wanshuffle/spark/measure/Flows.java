package io.wanshuffle.spark.measure;

import io.wanshuffle.spark.topology.LinkModel;
import java.util.ArrayList;
import java.util.List;

/** Synthetic flows with known rates, grant delay and ramp, for the estimators' tests. */
final class Flows {
  static final long GRANT_MS = 20;
  static final long RAMP_MS = 100;

  private Flows() {}

  /** Two sites a and b, k flows per backbone side, one flow per NIC, base speed 1 MB/s. */
  static NetworkEstimator.Routes routes(int k) {
    return NetworkEstimator.Routes.of(LinkModel.kpbs(k, h -> 1, h -> h.substring(0, 1), 1_000_000));
  }

  /**
   * Steps one after the other, each of {@code pairs} flows a(i) -> b(i) (rotated per step) of one
   * size, growing per step; each flow runs at {@code flowRate} after the grant delay and ramp.
   *
   * @param straggleEvery every n-th flow takes 3 times as long (0 = none)
   */
  static List<MeasuredFlow> steps(int steps, int pairs, double flowRate, int straggleEvery) {
    List<MeasuredFlow> out = new ArrayList<>();
    long t = 1_000_000;
    int n = 0;
    for (int s = 0; s < steps; s++) {
      long bytes = 200_000 + 50_000L * s;
      long end = t;
      for (int p = 0; p < pairs; p++) {
        long start = t + GRANT_MS;
        long active = RAMP_MS + Math.round(bytes / flowRate * 1000);
        if (straggleEvery > 0 && ++n % straggleEvery == 0) {
          active *= 3;
        }
        String src = "a" + p;
        String dst = "b" + ((p + s) % pairs);
        out.add(new MeasuredFlow(src, dst, bytes, t, start, start + active));
        end = Math.max(end, start + active);
      }
      t = end;
    }
    return out;
  }
}
