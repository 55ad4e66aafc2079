package io.wanshuffle.bench.liquid;

import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.scheduler.topology.LinkNetwork;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What a rack-blind schedule costs once the network enforces its links: each step is split, first
 * fit by decreasing amount, into sub-steps in which no link of the network is overloaded (each
 * sub-step pays β and lasts its longest transfer). A stand-in for the slowdown the overloads cause.
 */
final class RackSplit {
  private RackSplit() {}

  static Schedule split(Schedule s, LinkNetwork net) {
    List<Step> out = new ArrayList<>();
    for (Step step : s.steps()) {
      List<Transfer> ts = new ArrayList<>(step.transfers());
      ts.sort(Comparator.comparingDouble(Transfer::amount).reversed());
      List<List<Transfer>> parts = new ArrayList<>();
      List<int[]> use = new ArrayList<>();
      for (Transfer t : ts) {
        int[] r = net.route(t.src(), t.dst());
        int f = 0;
        while (f < parts.size() && !fits(use.get(f), r, net)) {
          f++;
        }
        if (f == parts.size()) {
          parts.add(new ArrayList<>());
          use.add(new int[net.linkCount()]);
        }
        parts.get(f).add(t);
        for (int l : r) {
          use.get(f)[l]++;
        }
      }
      for (List<Transfer> part : parts) {
        out.add(Step.of(part));
      }
    }
    return new Schedule(out);
  }

  private static boolean fits(int[] use, int[] route, LinkNetwork net) {
    for (int l : route) {
      if (use[l] >= net.capacity(l)) {
        return false;
      }
    }
    return true;
  }
}
