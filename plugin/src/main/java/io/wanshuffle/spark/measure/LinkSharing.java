package io.wanshuffle.spark.measure;

import java.util.Arrays;
import java.util.List;

/**
 * How the flows crossing one link shared it over time: n(t), the flows sending on the link at
 * instant t, and for each flow its <em>share time</em> ∫ dt / n(t) over its sending interval, in
 * seconds: the time the whole link would have needed for the flow's bytes if the flow got 1/n(t) of
 * the link's rate at every instant (the fair-sharing model of the redistribution-prediction paper,
 * Wagner and Jeannot, INRIA RR-5361, sec. 3.1). A flow's mean sharing count over its sending
 * interval is then that interval's length / share seconds.
 *
 * <p>A flow sends on {@code [startMs + lead, endMs)} ({@link #sendingFromMs}): {@code lead} is the
 * time a flow spends after its request before it sends at its share (the request's round trip and
 * TCP's ramp), during which it holds no share of the link. With {@code lead = 0} a flow counts from
 * its request.
 *
 * <p>O(F log F) for F flows: a sweep over the flows' ends builds the cumulative ∫ dt / n(t), and
 * each flow reads it at its two ends.
 */
public final class LinkSharing {
  private LinkSharing() {}

  /**
   * @param flows the flows crossing the link, each with {@code endMs > startMs}
   * @return per flow, in the order given, its share time in seconds, counting each flow from its
   *     request (lead 0)
   */
  public static double[] shareSeconds(List<MeasuredFlow> flows) {
    return shareSeconds(flows, 0);
  }

  /**
   * @param f a flow with {@code endMs > startMs}
   * @param leadMs the time after its request a flow sends nothing, ms, at least 0
   * @return when it starts sending, epoch ms: {@code startMs + leadMs}, at most {@code endMs - 1}
   *     (a flow shorter than the lead sends in its last millisecond)
   */
  public static long sendingFromMs(MeasuredFlow f, long leadMs) {
    return Math.max(f.startMs(), Math.min(f.startMs() + leadMs, f.endMs() - 1));
  }

  /**
   * @param flows the flows crossing the link, each with {@code endMs > startMs}
   * @param leadMs the time after its request a flow sends nothing, ms, at least 0: each flow counts
   *     in n(t) on {@code [sendingFromMs, endMs)}
   * @return per flow, in the order given, its share time in seconds (0 < share ≤ its sending time)
   */
  public static double[] shareSeconds(List<MeasuredFlow> flows, long leadMs) {
    int f = flows.size();
    long[] from = new long[f];
    long[] times = new long[2 * f];
    for (int i = 0; i < f; i++) {
      from[i] = sendingFromMs(flows.get(i), leadMs);
      times[2 * i] = from[i];
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
    for (int i = 0; i < f; i++) {
      delta[Arrays.binarySearch(points, from[i])]++;
      delta[Arrays.binarySearch(points, flows.get(i).endMs())]--;
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
      out[i] =
          cumulative[Arrays.binarySearch(points, flows.get(i).endMs())]
              - cumulative[Arrays.binarySearch(points, from[i])];
    }
    return out;
  }
}
