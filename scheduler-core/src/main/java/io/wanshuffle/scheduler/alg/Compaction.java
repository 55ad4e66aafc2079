package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.Transfer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * A post-pass that never raises the cost of a valid schedule: it moves transfer pieces into the
 * idle time of other steps so that whole steps disappear (saving β plus their duration) or get
 * shorter. Our extension; the papers' algorithms stop after peeling.
 *
 * <p>View: with the set of (step, pair) slots fixed, the best amounts solve the covering LP min Σ
 * d_s subject to Σ_{s ∋ p} d_s ≥ a_p (GGP/OGGP paper's KPBS with fixed matchings). This pass is a
 * greedy coordinate descent on it: steps in increasing duration order try to drop to 0 (then
 * vanish) or to the next lower level among their own transfer amounts, by pouring the excess of
 * each transfer into other steps that already carry the pair (up to their duration) or that have a
 * free slot (fewer than k transfers and a free port at both ends, δ-port). A step that is longer
 * than the one it pours into is thereby merged into it only when everything fits.
 *
 * <p>Cost: bounded by a work budget proportional to the schedule size, so large schedules stay fast
 * (the pass then improves fewer steps).
 */
final class Compaction {
  private static final double EPS = 1e-12;

  private Compaction() {}

  static final class MStep {
    double dur;
    int n;
    int[] src;
    int[] dst;
    double[] amt;
    boolean alive = true;
    int index;
    int liveCount;

    MStep(Step s, int index) {
      this.index = index;
      n = s.transfers().size();
      src = new int[Math.max(4, n)];
      dst = new int[src.length];
      amt = new double[src.length];
      for (int i = 0; i < n; i++) {
        Transfer t = s.transfers().get(i);
        src[i] = t.src();
        dst[i] = t.dst();
        amt[i] = t.amount();
      }
      dur = s.duration();
      liveCount = n;
    }

    int find(int s, int d) {
      for (int i = 0; i < n; i++) {
        if (src[i] == s && dst[i] == d) {
          return i;
        }
      }
      return -1;
    }

    void add(int s, int d, double a) {
      if (n == src.length) {
        src = Arrays.copyOf(src, n * 2);
        dst = Arrays.copyOf(dst, n * 2);
        amt = Arrays.copyOf(amt, n * 2);
      }
      src[n] = s;
      dst[n] = d;
      amt[n] = a;
      n++;
      if (a > 0) {
        liveCount++;
      }
    }

    int senderUse(int s) {
      int u = 0;
      for (int i = 0; i < n; i++) {
        if (src[i] == s && amt[i] > 0) {
          u++;
        }
      }
      return u;
    }

    int receiverUse(int d) {
      int u = 0;
      for (int i = 0; i < n; i++) {
        if (dst[i] == d && amt[i] > 0) {
          u++;
        }
      }
      return u;
    }

    int live() {
      return liveCount;
    }
  }

  /**
   * Per traffic-matrix pair, the steps that carry it: linked lists on int arrays, their heads found
   * by the pair's cell number (row x columns + column) in an open-addressing table sized to the
   * pairs present, so an index costs O(transfers) memory, not O(senders x receivers).
   */
  static final class PairIndex {
    /** Cell numbers of the pairs in the table, {@link #EMPTY} where none; a power of two long. */
    private long[] keys;

    /** Per table slot, the first entry of its pair's list. */
    private int[] heads;

    private int pairs;
    private int[] next = new int[64];
    private int[] stepOf = new int[64];
    private int size;
    private final List<MStep> steps;

    private static final long EMPTY = -1;

    /**
     * @param expected entries expected (the table grows past them)
     * @param steps the steps, by index
     */
    PairIndex(int expected, List<MStep> steps) {
      int cap = Integer.highestOneBit(Math.max(16, 2 * expected) - 1) << 1;
      keys = new long[cap];
      heads = new int[cap];
      Arrays.fill(keys, EMPTY);
      this.steps = steps;
    }

    void add(long pair, MStep s) {
      if (size == next.length) {
        next = Arrays.copyOf(next, size * 2);
        stepOf = Arrays.copyOf(stepOf, size * 2);
      }
      int slot = slot(pair);
      if (keys[slot] == EMPTY) {
        if (2 * (pairs + 1) > keys.length) {
          rehash();
          slot = slot(pair);
        }
        keys[slot] = pair;
        heads[slot] = -1;
        pairs++;
      }
      next[size] = heads[slot];
      stepOf[size] = s.index;
      heads[slot] = size++;
    }

    int head(long pair) {
      int slot = slot(pair);
      return keys[slot] == EMPTY ? -1 : heads[slot];
    }

    int next(int ent) {
      return next[ent];
    }

    MStep step(int ent) {
      return steps.get(stepOf[ent]);
    }

    /** The slot of {@code pair}, or the empty slot where it would go (linear probing). */
    private int slot(long pair) {
      int mask = keys.length - 1;
      int i = (int) (mix(pair) & mask);
      while (keys[i] != EMPTY && keys[i] != pair) {
        i = (i + 1) & mask;
      }
      return i;
    }

    private void rehash() {
      long[] oldKeys = keys;
      int[] oldHeads = heads;
      keys = new long[2 * oldKeys.length];
      heads = new int[keys.length];
      Arrays.fill(keys, EMPTY);
      for (int i = 0; i < oldKeys.length; i++) {
        if (oldKeys[i] != EMPTY) {
          int slot = slot(oldKeys[i]);
          keys[slot] = oldKeys[i];
          heads[slot] = oldHeads[i];
        }
      }
    }

    /** A 64-bit finaliser (SplitMix64's), so that cell numbers of one row spread over the table. */
    private static long mix(long z) {
      z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
      z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
      return z ^ (z >>> 31);
    }
  }

  /** One tentative move: {@code amount} of pair (s, d) into step y (slot -1 = new slot). */
  private record Move(MStep y, int slot, int s, int d, double amount) {}

  /**
   * @param schedule a valid schedule of some instance
   * @param platform k, β and δ of that instance
   * @param budget rough limit on elementary operations (e.g. 200 per transfer)
   * @return a valid schedule of the same instance with cost ≤ the input's
   */
  static Schedule improve(Schedule schedule, Platform platform, long budget) {
    List<MStep> steps = new ArrayList<>();
    long cols = platform.receivers();
    int entries = 0;
    for (Step s : schedule.steps()) {
      entries += s.transfers().size();
    }
    PairIndex byPair = new PairIndex(entries, steps);
    for (Step s : schedule.steps()) {
      MStep ms = new MStep(s, steps.size());
      steps.add(ms);
      for (int i = 0; i < ms.n; i++) {
        byPair.add(ms.src[i] * cols + ms.dst[i], ms);
      }
    }
    int k = platform.k();
    double beta = platform.beta();
    long[] work = {0};
    for (int round = 0; round < 3; round++) {
      boolean changed = false;
      List<MStep> order = new ArrayList<>();
      for (MStep s : steps) {
        if (s.alive) {
          order.add(s);
        }
      }
      order.sort((a, b) -> Double.compare(a.dur, b.dur));
      List<MStep> open = new ArrayList<>();
      for (MStep s : order) {
        if (s.live() < k) {
          open.add(s);
        }
      }
      for (MStep x : order) {
        if (work[0] > budget) {
          break;
        }
        if (!x.alive) {
          continue;
        }
        // Levels to try: 0 (remove the step), then the step's own amounts below its duration.
        double[] levels = new double[x.n + 1];
        int nl = 0;
        levels[nl++] = 0;
        double[] sorted = Arrays.copyOf(x.amt, x.n);
        Arrays.sort(sorted);
        for (double a : sorted) {
          if (a > 0 && a < x.dur * (1 - 1e-12)) {
            levels[nl++] = a;
          }
        }
        // Removal, then each lower level; keep the plan with the largest net gain.
        Plan best = null;
        double bestLevel = x.dur;
        double bestGain = EPS * x.dur;
        for (int li = 0; li < nl; li++) {
          double level = levels[li];
          Plan plan = tryLevel(x, level, byPair, open, cols, k, platform, work);
          if (plan == null) {
            continue;
          }
          double gain = (level == 0 ? beta + x.dur : x.dur - level) - plan.growth();
          if (gain > bestGain) {
            best = plan;
            bestGain = gain;
            bestLevel = level;
          }
        }
        if (best == null) {
          continue;
        }
        commit(x, bestLevel, best, byPair, cols);
        changed = true;
      }
      if (!changed) {
        break;
      }
    }
    List<Step> out = new ArrayList<>();
    for (MStep s : steps) {
      if (!s.alive) {
        continue;
      }
      List<Transfer> ts = new ArrayList<>();
      for (int i = 0; i < s.n; i++) {
        if (s.amt[i] > 0) {
          ts.add(new Transfer(s.src[i], s.dst[i], s.amt[i]));
        }
      }
      if (!ts.isEmpty()) {
        out.add(Step.of(ts));
      }
    }
    return new Schedule(out);
  }

  /** A plan: the moves and how much the receiving steps' durations grow in total. */
  private record Plan(List<Move> moves, double growth, IdentityHashMap<MStep, Double> durs) {}

  /**
   * Plans moving every piece of x above {@code level} elsewhere: first into idle time (steps that
   * carry the pair, then free slots), then, for what is left, into the single candidate whose
   * duration grows least. Returns null when some piece finds no candidate at all.
   */
  private static Plan tryLevel(
      MStep x,
      double level,
      PairIndex byPair,
      List<MStep> open,
      long cols,
      int k,
      Platform p,
      long[] work) {
    List<Move> moves = new ArrayList<>();
    IdentityHashMap<MStep, List<int[]>> added = new IdentityHashMap<>();
    IdentityHashMap<MStep, Double> durs = new IdentityHashMap<>();
    double growth = 0;
    for (int i = 0; i < x.n; i++) {
      double excess = x.amt[i] - level;
      if (excess <= 0) {
        continue;
      }
      int s = x.src[i];
      int d = x.dst[i];
      MStep bestY = null;
      int bestSlot = -1;
      double bestGrowth = Double.POSITIVE_INFINITY;
      // 1. Steps that already carry the pair: fill up to their duration.
      for (int ent = byPair.head(s * cols + d); ent >= 0; ent = byPair.next(ent)) {
        MStep y = byPair.step(ent);
        work[0]++;
        if (y == x || !y.alive) {
          continue;
        }
        int slot = y.find(s, d);
        if (slot < 0) {
          continue;
        }
        double dur = durs.getOrDefault(y, y.dur);
        double have = y.amt[slot] + pending(moves, y, slot);
        double room = dur - have;
        if (excess > 0 && room > EPS * dur) {
          double mv = Math.min(room, excess);
          moves.add(new Move(y, slot, s, d, mv));
          excess -= mv;
          have += mv;
        }
        double g = have + excess - dur;
        if (g < bestGrowth) {
          bestGrowth = g;
          bestY = y;
          bestSlot = slot;
        }
      }
      // 2. Steps with a free slot and free ports at both ends.
      for (int oi = 0; oi < open.size() && excess > 0; oi++) {
        MStep y = open.get(oi);
        work[0] += y.n + 1;
        if (y == x || !y.alive || y.find(s, d) >= 0) {
          continue;
        }
        List<int[]> extra = added.getOrDefault(y, List.of());
        if (alreadyAdded(extra, s, d) || y.live() + extra.size() >= k) {
          continue;
        }
        int su = y.senderUse(s);
        int ru = y.receiverUse(d);
        for (int[] e : extra) {
          if (e[0] == s) {
            su++;
          }
          if (e[1] == d) {
            ru++;
          }
        }
        if (su >= p.senderPorts(s) || ru >= p.receiverPorts(d)) {
          continue;
        }
        double dur = durs.getOrDefault(y, y.dur);
        if (dur > EPS * x.dur) {
          double mv = Math.min(dur, excess);
          moves.add(new Move(y, -1, s, d, mv));
          added.computeIfAbsent(y, z -> new ArrayList<>()).add(new int[] {s, d});
          excess -= mv;
        } else if (excess - dur < bestGrowth) {
          bestGrowth = excess - dur;
          bestY = y;
          bestSlot = -2; // new slot with growth
        }
        if (excess > 0 && excess - 0 < bestGrowth && dur > EPS * x.dur) {
          // the slot just added can also grow
          bestGrowth = excess;
          bestY = y;
          bestSlot = -3;
        }
      }
      if (excess > EPS * x.amt[i]) {
        if (bestY == null) {
          return null;
        }
        double dur = durs.getOrDefault(bestY, bestY.dur);
        if (bestSlot >= 0) {
          double have = bestY.amt[bestSlot] + pending(moves, bestY, bestSlot);
          moves.add(new Move(bestY, bestSlot, s, d, excess));
          double nd = Math.max(dur, have + excess);
          growth += nd - dur;
          durs.put(bestY, nd);
        } else {
          // Grow the slot of (s, d) added to bestY (or add it now).
          int idx = -1;
          for (int mi = moves.size() - 1; mi >= 0; mi--) {
            Move m = moves.get(mi);
            if (m.y() == bestY && m.slot() == -1 && m.s() == s && m.d() == d) {
              idx = mi;
              break;
            }
          }
          double have = 0;
          if (idx >= 0) {
            Move m = moves.get(idx);
            have = m.amount();
            moves.set(idx, new Move(bestY, -1, s, d, m.amount() + excess));
          } else {
            moves.add(new Move(bestY, -1, s, d, excess));
            added.computeIfAbsent(bestY, z -> new ArrayList<>()).add(new int[] {s, d});
          }
          double nd = Math.max(dur, have + excess);
          growth += nd - dur;
          durs.put(bestY, nd);
        }
      }
    }
    return new Plan(moves, growth, durs);
  }

  private static boolean alreadyAdded(List<int[]> extra, int s, int d) {
    for (int[] e : extra) {
      if (e[0] == s && e[1] == d) {
        return true;
      }
    }
    return false;
  }

  private static double pending(List<Move> moves, MStep y, int slot) {
    double a = 0;
    for (Move m : moves) {
      if (m.y() == y && m.slot() == slot) {
        a += m.amount();
      }
    }
    return a;
  }

  private static void commit(MStep x, double level, Plan plan, PairIndex byPair, long cols) {
    for (var e : plan.durs().entrySet()) {
      e.getKey().dur = Math.max(e.getKey().dur, e.getValue());
    }
    for (Move m : plan.moves()) {
      if (m.slot() >= 0) {
        m.y().amt[m.slot()] += m.amount();
      } else {
        m.y().add(m.s(), m.d(), m.amount());
        byPair.add(m.s() * cols + m.d(), m.y());
      }
    }
    for (int i = 0; i < x.n; i++) {
      if (x.amt[i] > level) {
        x.amt[i] = level;
      }
    }
    if (level == 0) {
      x.alive = false;
      x.n = 0;
      x.liveCount = 0;
    } else {
      x.dur = level;
    }
  }
}
