package io.wanshuffle.scheduler.topology;

import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.Transfer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Splits the steps of a schedule so that no link of a {@link LinkNetwork} carries more flows than
 * its capacity (first fit by decreasing amount). Each extra sub-step pays β once more.
 */
public final class LinkCapacitySplit {
  private LinkCapacitySplit() {}

  /**
   * Splits every step of a schedule, first fit by decreasing amount, into sub-steps in which no
   * link of {@code net} is overloaded; each sub-step lasts its longest transfer (a step that
   * already fits is kept as it is). Used to make a rack-blind KPBS schedule respect a topology, and
   * to price what its overloads would cost.
   *
   * @param s a schedule over the hosts of {@code net} (Transfer src/dst = sender/receiver index)
   * @param net the link network: routes and capacities in flows
   * @return a schedule with the same transfers in which every step respects every link capacity
   * @throws IndexOutOfBoundsException if a transfer names a host outside the network
   */
  public static Schedule split(Schedule s, LinkNetwork net) {
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
      if (parts.size() == 1) {
        out.add(step);
      } else {
        for (List<Transfer> part : parts) {
          out.add(Step.of(part));
        }
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
