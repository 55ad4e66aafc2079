package io.wanshuffle.spark.arbiter;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The split of one link's window between the applications with demand on it: weighted max-min fair
 * in whole flows (progressive filling, Bertsekas and Gallager, <i>Data Networks</i>, 2nd ed., sec.
 * 6.5.2, with weights), each application capped at the flows it claims, then what nobody claims
 * handed out by the same rule. Every driver computes it on the same inputs (the published claims)
 * and gets the same answer.
 *
 * <p>The rule, for a window of W flows and n claims (application, weight w &gt; 0, flows c &gt;=
 * 1):
 *
 * <ol>
 *   <li>W &lt; n: the W claims first by weight (highest first), then by the start of their
 *       application's demand (earliest first: an application already crossing the backbone keeps
 *       its links rather than handing them to one that came later; one start per application, the
 *       same on every link, so that the order is the same on every link and no two applications
 *       each hold one of two links both need; starts are ordered by ZooKeeper's order of the writes
 *       that published them, which every driver reads alike), then by application name (lowest
 *       first) get 1 flow each, the others 0.
 *   <li>Otherwise every claim gets 1 flow; then, one flow at a time, the next flow goes to the
 *       claim below its c with the lowest (share + 1) / w, ties to the lowest application name,
 *       until the window is used up or every claim has its c;
 *   <li>the flows left go one at a time by the same order over all claims, caps ignored (an
 *       application alone gets the whole window).
 * </ol>
 *
 * <p>Then no share stays below its claim's held flows (the flows the application holds on the link
 * now: a share never preempts an open flow): a share below them is raised to them and the flows
 * this adds are taken back from the other shares above their held flows, the highest share / weight
 * first. The shares sum to W but while the held flows alone exceed it (a view not yet updated),
 * when each share is its held flows.
 *
 * <p>So, with nothing held, the shares sum to exactly W when n &gt;= 1, each claim gets at least 1
 * flow when W &gt;= n, and with equal weights shares differ by at most 1 flow among claims not
 * capped (the lowest (share + 1) / w first is D'Hondt's apportionment: with demand beyond the
 * window, shares are proportional to weights within one flow). Time O(W log n).
 */
final class FairSplit {
  private FairSplit() {}

  /**
   * One application's claim on the link.
   *
   * @param app the application's name in the arbiter (unique)
   * @param weight its weight, &gt; 0
   * @param flows the flows it wants, &gt;= 1
   * @param order its application's place in the order of demand starts, lower first ({@link
   *     PublishedDemand#order()}: the zxid of the write that published the start; 0 first)
   * @param held the flows it holds on the link now, &gt;= 0: its share is never below them
   */
  record Claim(String app, double weight, int flows, long order, int held) {
    /** A claim first in the order ({@code order} 0), holding nothing. */
    Claim(String app, double weight, int flows) {
      this(app, weight, flows, 0, 0);
    }

    /** A claim holding nothing. */
    Claim(String app, double weight, int flows, long order) {
      this(app, weight, flows, order, 0);
    }

    /** Checks the values. */
    Claim {
      if (!(weight > 0) || Double.isInfinite(weight) || flows < 1 || held < 0) {
        throw new IllegalArgumentException(
            "claim of "
                + app
                + ": weight must be > 0 and flows >= 1, got "
                + weight
                + ", "
                + flows
                + " (held "
                + held
                + ")");
      }
    }
  }

  /**
   * @param window the link's window, flows, &gt;= 0
   * @param claims the claims of the applications with demand on the link, names unique, any order
   * @return each claim's share in flows, in the order of {@code claims}
   */
  static int[] split(int window, List<Claim> claims) {
    int[] share = fair(window, claims);
    keepHeld(share, claims);
    return share;
  }

  /**
   * Raises each share below its claim's held flows to them (shares do not preempt open flows) and
   * takes the flows this adds from the claims whose shares are above their held flows, one at a
   * time from the one of the highest share / weight (the last the fair rule served; ties to the
   * highest name), until the shares sum to the window again or no share is above its held flows
   * (the open flows alone fill the window: every share is its held flows).
   */
  private static void keepHeld(int[] share, List<Claim> claims) {
    int excess = 0;
    for (int i = 0; i < share.length; i++) {
      int held = claims.get(i).held();
      if (share[i] < held) {
        excess += held - share[i];
        share[i] = held;
      }
    }
    Comparator<Integer> last =
        Comparator.<Integer>comparingDouble(i -> share[i] / claims.get(i).weight())
            .thenComparing(i -> claims.get(i).app());
    while (excess > 0) {
      int from = -1;
      for (int i = 0; i < share.length; i++) {
        if (share[i] > claims.get(i).held() && (from < 0 || last.compare(i, from) > 0)) {
          from = i;
        }
      }
      if (from < 0) {
        return;
      }
      share[from]--;
      excess--;
    }
  }

  private static int[] fair(int window, List<Claim> claims) {
    int n = claims.size();
    int[] share = new int[n];
    if (n == 0 || window <= 0) {
      return share;
    }
    if (window < n) {
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        order.add(i);
      }
      order.sort(
          Comparator.<Integer>comparingDouble(i -> -claims.get(i).weight())
              .thenComparingLong(i -> claims.get(i).order())
              .thenComparing(i -> claims.get(i).app()));
      for (int i = 0; i < window; i++) {
        share[order.get(i)] = 1;
      }
      return share;
    }
    java.util.Arrays.fill(share, 1);
    int left = fill(share, claims, window - n, true);
    fill(share, claims, left, false);
    return share;
  }

  /**
   * Hands out up to {@code left} flows one at a time to the claim of the lowest (share + 1) /
   * weight, ties to the lowest name.
   *
   * @return the flows left (only when {@code capped} and every claim reached its flows)
   */
  private static int fill(int[] share, List<Claim> claims, int left, boolean capped) {
    Comparator<Integer> next =
        Comparator.<Integer>comparingDouble(i -> (share[i] + 1) / claims.get(i).weight())
            .thenComparing(i -> claims.get(i).app());
    PriorityQueue<Integer> queue = new PriorityQueue<>(next);
    for (int i = 0; i < share.length; i++) {
      if (!capped || share[i] < claims.get(i).flows()) {
        queue.add(i);
      }
    }
    while (left > 0 && !queue.isEmpty()) {
      int i = queue.poll();
      share[i]++;
      left--;
      if (!capped || share[i] < claims.get(i).flows()) {
        queue.add(i);
      }
    }
    return left;
  }
}
