package io.wanshuffle.scheduler.liquid;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The topology-unaware round-robin schedule of an all-to-all exchange, the baseline of the
 * liquid-schedules paper (sec. 1.1, Fig. 2): phase p holds the transfers T_i → R_((i+p) mod m); a
 * phase whose transfers congest is carried out in several time frames (each transfer goes into the
 * first frame of its phase where it congests with nobody, in sender order). O(n·m·links).
 */
public final class RoundRobin {
  private RoundRobin() {}

  /**
   * @param traffic the traffic
   * @param transferOf {@code transferOf[i][j]} = id of the transfer from transmitter i to receiver
   *     j, or -1 if there is none; all rows the same length m
   * @return the round-robin schedule; {@code optimal} is true only when it is liquid
   * @throws IllegalArgumentException if an id is used twice or missing, or rows differ in length
   */
  public static LiquidSchedule schedule(Traffic traffic, int[][] transferOf) {
    int m = transferOf.length == 0 ? 0 : transferOf[0].length;
    BitSet seen = new BitSet();
    List<int[]> frames = new ArrayList<>();
    for (int p = 0; p < m; p++) {
      List<List<Integer>> phase = new ArrayList<>();
      List<BitSet> used = new ArrayList<>();
      for (int i = 0; i < transferOf.length; i++) {
        if (transferOf[i].length != m) {
          throw new IllegalArgumentException(
              "row " + i + " has " + transferOf[i].length + " receivers, expected " + m);
        }
        int t = transferOf[i][(i + p) % m];
        if (t < 0) {
          continue;
        }
        if (seen.get(t)) {
          throw new IllegalArgumentException("transfer " + t + " appears twice");
        }
        seen.set(t);
        int[] ls = traffic.links(t);
        int f = 0;
        while (f < phase.size() && conflicts(used.get(f), ls)) {
          f++;
        }
        if (f == phase.size()) {
          phase.add(new ArrayList<>());
          used.add(new BitSet());
        }
        phase.get(f).add(t);
        for (int l : ls) {
          used.get(f).set(l);
        }
      }
      for (List<Integer> fr : phase) {
        frames.add(fr.stream().mapToInt(Integer::intValue).toArray());
      }
    }
    if (seen.cardinality() != traffic.size()) {
      throw new IllegalArgumentException(
          "transferOf names " + seen.cardinality() + " of the " + traffic.size() + " transfers");
    }
    return new LiquidSchedule(
        traffic, frames, traffic.duration(), frames.size() == traffic.duration());
  }

  private static boolean conflicts(BitSet used, int[] links) {
    for (int l : links) {
      if (used.get(l)) {
        return true;
      }
    }
    return false;
  }
}
