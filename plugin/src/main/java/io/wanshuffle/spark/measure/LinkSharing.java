package io.wanshuffle.spark.measure;

import java.util.Arrays;
import java.util.List;

/**
 * How the flows crossing one link shared it over time: n(t), the flows active on the link at
 * instant t (a flow is active on {@code [startMs, endMs)}), and for each flow its <em>share
 * time</em> ∫ dt / n(t) over its active interval, in seconds: the time the whole link would have
 * needed for the flow's bytes if the flow got 1/n(t) of the link's rate at every instant (the
 * fair-sharing model of the redistribution-prediction paper, Wagner and Jeannot, INRIA RR-5361,
 * sec. 3.1). A flow's mean sharing count over its life is then active seconds / share seconds.
 *
 * <p>O(F log F) for F flows: a sweep over the flows' ends builds the cumulative ∫ dt / n(t), and
 * each flow reads it at its two ends.
 */
public final class LinkSharing {
  private LinkSharing() {}

  /**
   * @param flows the flows crossing the link, each with {@code endMs > startMs}
   * @return per flow, in the order given, its share time in seconds (0 < share ≤ active time)
   */
  public static double[] shareSeconds(List<MeasuredFlow> flows) {
    int f = flows.size();
    long[] times = new long[2 * f];
    for (int i = 0; i < f; i++) {
      times[2 * i] = flows.get(i).startMs();
      times[2 * i + 1] = flows.get(i).endMs();
    }
    Arrays.sort(times);
    int t = 0;
    for (int i = 0; i < times.length; i++) {
      if (i == 0 || times[i] != times[t - 1]) {
        times[t++] = times[i];
      }
    }
    long[] points = Arrays.copyOf(times, t);
    int[] delta = new int[t];
    for (MeasuredFlow fl : flows) {
      delta[Arrays.binarySearch(points, fl.startMs())]++;
      delta[Arrays.binarySearch(points, fl.endMs())]--;
    }
    // cumulative[i] = ∫ from points[0] to points[i] of dt / n(t), seconds
    double[] cumulative = new double[t];
    int active = 0;
    for (int i = 0; i + 1 < t; i++) {
      active += delta[i];
      double dt = (points[i + 1] - points[i]) / 1000.0;
      cumulative[i + 1] = cumulative[i] + (active > 0 ? dt / active : 0);
    }
    double[] out = new double[f];
    for (int i = 0; i < f; i++) {
      MeasuredFlow fl = flows.get(i);
      out[i] =
          cumulative[Arrays.binarySearch(points, fl.endMs())]
              - cumulative[Arrays.binarySearch(points, fl.startMs())];
    }
    return out;
  }
}
