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

  /** TCP's initial window, bytes (10 segments of 1460). */
  static final long INITIAL_WINDOW = 14_600;

  /**
   * The time a flow of {@code bytes} takes after its request on an idle path of round trip {@code
   * rttMs} at {@code rate}: one round trip for the request, then TCP's slow start (the window
   * doubling each round trip from {@link #INITIAL_WINDOW}) until a round trip carries rate x RTT,
   * then the rest at {@code rate}.
   *
   * @return ms
   */
  static long wanActiveMs(long bytes, double rate, long rttMs) {
    double perRtt = rate * rttMs / 1000.0;
    double t = rttMs;
    double left = bytes;
    double window = INITIAL_WINDOW;
    while (left > 0 && window < perRtt) {
      double sent = Math.min(left, window);
      left -= sent;
      t += left > 0 ? rttMs : sent / window * rttMs;
      window *= 2;
    }
    if (left > 0) {
      t += left / rate * 1000;
    }
    return Math.round(t);
  }

  /**
   * Steps over a long round trip, each of {@code pairs} flows a(i) -> b(i) (rotated per step) of
   * one size (1 to 4.5 MB, by step), each flow sending at {@code flowRate} after its request's
   * round trip and TCP's slow start ({@link #wanActiveMs}); each step's flows are requested {@code
   * overlapMs} before the previous step's last byte (predicted hand-over), so a flow's idle first
   * round trips overlap the previous flows' last bytes.
   *
   * @param straggleEvery every n-th flow takes 3 times as long (0 = none)
   * @param partialEvery every n-th flow reports half its bytes over its whole time, as a lost
   *     executor's flow does (0 = none)
   */
  static List<MeasuredFlow> wan(
      int steps,
      int pairs,
      double flowRate,
      long rttMs,
      long overlapMs,
      int straggleEvery,
      int partialEvery) {
    List<MeasuredFlow> out = new ArrayList<>();
    long t = 1_000_000;
    int n = 0;
    for (int s = 0; s < steps; s++) {
      long bytes = 1_000_000 + 500_000L * (s % 8);
      long end = t;
      for (int p = 0; p < pairs; p++) {
        long start = t + GRANT_MS;
        long active = wanActiveMs(bytes, flowRate, rttMs);
        n++;
        if (straggleEvery > 0 && n % straggleEvery == 0) {
          active *= 3;
        }
        long reported = partialEvery > 0 && n % partialEvery == 0 ? bytes / 2 : bytes;
        out.add(
            new MeasuredFlow("a" + p, "b" + ((p + s) % pairs), reported, t, start, start + active));
        end = Math.max(end, start + active);
      }
      t = end - overlapMs;
    }
    return out;
  }

  /**
   * Steps over a long round trip on connections that stay open, each of {@code pairs} flows a(i) ->
   * b(i + s) (rotated per step) of one size (1 to 4.5 MB by step, sizes mixed: 1, 3.5, 2, 4.5, 3,
   * 1.5, 4, 2.5 MB), as Spark fetches them: one connection per host pair, opened by the pair's
   * first flow. A pair's first flow pays the connection's set-up (one round trip), the request's
   * round trip and TCP's slow start ({@link #wanActiveMs}); its later flows find the window open
   * and pay only the request's round trip before sending at {@code flowRate}. Each step's flows are
   * requested {@code overlapMs} before the previous step's last byte (predicted hand-over).
   *
   * @param firstStep the step numbering starts at (a later stage's steps continue the rotation)
   * @param opened the host pairs whose connection is open, updated
   * @param t0 when the first step is granted, epoch ms
   */
  static List<MeasuredFlow> connections(
      int firstStep,
      int steps,
      int pairs,
      double flowRate,
      long rttMs,
      long overlapMs,
      java.util.Set<String> opened,
      long t0) {
    List<MeasuredFlow> out = new ArrayList<>();
    long t = t0;
    for (int s = firstStep; s < firstStep + steps; s++) {
      long bytes = 1_000_000 + 500_000L * ((5 * s) % 8);
      long end = t;
      for (int p = 0; p < pairs; p++) {
        String src = "a" + p;
        String dst = "b" + ((p + s) % pairs);
        long start = t + GRANT_MS;
        long active =
            opened.add(src + ">" + dst)
                ? rttMs + wanActiveMs(bytes, flowRate, rttMs)
                : rttMs + Math.round(bytes / flowRate * 1000);
        out.add(new MeasuredFlow(src, dst, bytes, t, start, start + active));
        end = Math.max(end, start + active);
      }
      t = end - overlapMs;
    }
    return out;
  }
}
