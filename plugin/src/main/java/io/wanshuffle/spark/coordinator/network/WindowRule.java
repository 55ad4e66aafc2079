package io.wanshuffle.spark.coordinator.network;

import java.util.Locale;

/**
 * The rule that moves a shared link's window: how many cross-site flows the coordinator admits on
 * it at once. A window starts at the link's capacity in flows (its rate over the base speed, the
 * DGGP paper's base-speed rule, Jeannot and Wagner, sec. 2.2) and moves on the link's measured
 * flows, as TCP Vegas (Brakmo and Peterson, IEEE JSAC 13(8), 1995) moves a congestion window on the
 * difference between the throughput it expects and the one it measures, applied here to the number
 * of flows instead of the bytes in flight:
 *
 * <ol>
 *   <li><b>Slowed link.</b> When the link's flows, from at least two senders and two receivers, run
 *       at under {@value #SLOWED} of the share of every link of their routes (this link's rate over
 *       its window, the others' likewise), the link carries less than its rate: its measured
 *       throughput X = n̄ ρ (n̄ the flows it held on average while they ran, ρ their median rate)
 *       becomes its rate in force (for the predictions and the capture), and a window above the
 *       link's capacity falls back to it; it never falls below: flows slowed together by their
 *       hosts (CPU-bound tasks and fetches on a busy machine) look the same in flow records as a
 *       slower link, and fewer flows than the capacity would leave the link idle in that case while
 *       the capacity's flows fill a slower link too. One slow host (one sender or one receiver) is
 *       its NIC's business, not the link's.
 *   <li><b>Revert.</b> After the window rose from w, a rise that did not raise the link's measured
 *       throughput by at least half the headroom it had at w (or half a flow of its rate then,
 *       whichever is smaller) is taken back, and the window stays at w for {@value #HOLD_MS} ms:
 *       the link is full, an added flow only queues.
 *   <li><b>Up.</b> When the link held about its window of flows (n̄ at least the window less one
 *       half: every admitted flow active, the gaps of hand-overs included), carried under {@value
 *       #FILL} of its rate, and its flows ran under {@value #AT_SHARE} of their share of it
 *       (something else holds them: their NICs, TCP, a gap between flows), one flow more adds
 *       throughput: the window rises to the flows it takes to fill the link at their measured rate,
 *       ⌈{@value #FILL} R / ρ⌉, at least one more, at most the bound.
 *   <li>Otherwise the window holds: flows at their share of a link that carries its rate mean the
 *       link is the bottleneck and full, which is the goal.
 * </ol>
 *
 * A window never exceeds {@link #bound}: its capacity plus half of it, at least one flow more, so
 * no link carries more than 2 times its capacity in flows (a link of one flow: 2; of two: 3; of
 * four: 6). NIC windows are not moved: a NIC's δ flows are its host's own.
 */
public final class WindowRule {
  /** The share of its rate a link's flows should carry: the throughput goal of a window. */
  public static final double FILL = 0.92;

  /** Flows at this share of their share of a link or more run at their share: it holds them. */
  public static final double AT_SHARE = 0.90;

  /**
   * Flows under this share of every link's share on their routes: a link is slower than its rate.
   */
  public static final double SLOWED = 0.6;

  /** A slowed link measured at this many times its rate in force has recovered. */
  public static final double RECOVERED = 1.1;

  /** Fewest flows measured under the window in force for a decision. */
  public static final int MIN_FLOWS = 3;

  /** How long a window taken back stays at its lower value, ms. */
  public static final long HOLD_MS = 30_000;

  private WindowRule() {}

  /**
   * @param capacity a link's capacity in flows, at least 1
   * @return the largest window the rule gives that link: capacity + max(1, ⌈capacity / 2⌉)
   */
  public static int bound(int capacity) {
    return capacity + Math.max(1, (capacity + 1) / 2);
  }

  /**
   * What a link's recent flows say, measured under its window in force.
   *
   * @param flows flows measured, at least {@link #MIN_FLOWS} for a decision
   * @param flowRate their median rate, bytes/s (bytes over the time from request to last byte)
   * @param held the flows the coordinator held on the link on average over their span
   * @param otherShare the median over the flows of the smallest share of the other links of their
   *     routes (each link's rate over its window), bytes/s; infinite when they cross no other link
   * @param senders distinct sending hosts among the flows
   * @param receivers distinct receiving hosts among the flows
   */
  public record Observation(
      int flows, double flowRate, double held, double otherShare, int senders, int receivers) {

    /**
     * @return the link's throughput while the flows ran, bytes/s: flows held x their median rate
     */
    public double throughput() {
      return held * flowRate;
    }
  }

  /**
   * A link's window and what the rule remembers of it.
   *
   * @param window the flows admitted now
   * @param rate the link's rate in force, bytes/s: its configured rate, or its measured throughput
   *     while it is slowed
   * @param raisedFrom the window before the last rise, 0 when the last change was not a rise (or
   *     the rise was judged)
   * @param throughputBefore the link's measured throughput before the last rise, bytes/s
   * @param holdUntilMs no rise before this time, epoch ms
   */
  public record State(
      int window, double rate, int raisedFrom, double throughputBefore, long holdUntilMs) {
    /**
     * @param capacity a link's capacity in flows
     * @param rate its configured rate, bytes/s
     * @return the state of a link whose window is its capacity, at its configured rate
     */
    public static State initial(int capacity, double rate) {
      return new State(capacity, rate, 0, 0, 0);
    }
  }

  /**
   * The rule's answer for one link.
   *
   * @param state the link's state from now on (its window and rate in force included)
   * @param reason why the window or the rate in force moved, for the log and the capture; empty
   *     when neither did
   */
  public record Decision(State state, String reason) {
    /**
     * @param before the state the decision was made from
     * @return true when the window changed
     */
    public boolean moved(State before) {
      return state.window() != before.window();
    }
  }

  /**
   * Decides a link's window from its recent flows.
   *
   * @param o the flows measured under the window in force
   * @param s the link's state
   * @param capacity its capacity in flows at its configured rate, at least 1
   * @param configuredRate its configured rate, bytes/s (above 0)
   * @param baseSpeed the base speed b, bytes/s of one flow (above 0)
   * @param nowMs epoch ms
   * @return the decision; the state unchanged when there are fewer than {@link #MIN_FLOWS} flows
   */
  public static Decision decide(
      Observation o, State s, int capacity, double configuredRate, long baseSpeed, long nowMs) {
    if (o.flows() < MIN_FLOWS || !(o.flowRate() > 0)) {
      return new Decision(s, "");
    }
    int w = s.window();
    double rate = s.rate();
    double share = rate / w;
    double x = o.throughput();
    if (o.flowRate() < SLOWED * Math.min(share, o.otherShare())
        && o.senders() >= 2
        && o.receivers() >= 2) {
      // flows slowed together by their hosts (CPU, disks) look the same in flow records as a
      // slower link: the window keeps the capacity's flows, which fill the link either way
      int to = Math.min(w, capacity);
      return new Decision(
          new State(to, x, 0, 0, nowMs + HOLD_MS),
          String.format(
              Locale.ROOT,
              "slowed: its flows ran at %s, under %.0f %% of every share on their routes (%s);"
                  + " measured %s with %.2f flows held, in force as its rate",
              rate(o.flowRate()),
              100 * SLOWED,
              rate(Math.min(share, o.otherShare())),
              rate(x),
              o.held()));
    }
    if (rate < configuredRate && x > RECOVERED * rate) {
      return new Decision(
          new State(w, configuredRate, 0, 0, s.holdUntilMs()),
          String.format(
              Locale.ROOT,
              "recovered: measured %s against %s in force; back at its configured %s",
              rate(x),
              rate(rate),
              rate(configuredRate)));
    }
    if (s.raisedFrom() > 0) {
      int from = s.raisedFrom();
      double before = s.throughputBefore();
      double headroom = Math.max(0, rate - before);
      double needed = 0.5 * Math.min(headroom, rate / from);
      if (x < before + needed) {
        return new Decision(
            new State(from, rate, 0, 0, nowMs + HOLD_MS),
            String.format(
                Locale.ROOT,
                "full: the flow added did not raise its throughput enough (%s -> %s, %s needed)",
                rate(before),
                rate(x),
                rate(before + needed)));
      }
      s = new State(w, rate, 0, 0, s.holdUntilMs());
    }
    int bound = bound(capacity);
    if (w < bound
        && nowMs >= s.holdUntilMs()
        && o.held() >= w - 0.5
        && x < FILL * rate
        && o.flowRate() < AT_SHARE * share) {
      int fill = (int) Math.min(bound, Math.ceil(FILL * rate / o.flowRate()));
      int to = Math.min(bound, Math.max(w + 1, fill));
      return new Decision(
          new State(to, rate, w, x, s.holdUntilMs()),
          String.format(
              Locale.ROOT,
              "under-filled: %.2f flows held carried %s (%.0f %% of %s), each flow %s against its"
                  + " share %s",
              o.held(),
              rate(x),
              100 * x / rate,
              rate(rate),
              rate(o.flowRate()),
              rate(share)));
    }
    return new Decision(s, "");
  }

  private static String rate(double bytesPerSecond) {
    return String.format(Locale.ROOT, "%.1f Mbit/s", bytesPerSecond * 8 / 1e6);
  }
}
