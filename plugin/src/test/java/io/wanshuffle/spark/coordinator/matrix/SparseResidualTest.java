package io.wanshuffle.spark.coordinator.matrix;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.alg.Algorithms;
import io.wanshuffle.spark.coordinator.assemble.StandingPlan;
import io.wanshuffle.spark.coordinator.assemble.StepAssembler;
import io.wanshuffle.spark.coordinator.demand.Demand;
import io.wanshuffle.spark.coordinator.demand.DemandBook;
import io.wanshuffle.spark.coordinator.demand.FlowKeeping;
import io.wanshuffle.spark.coordinator.demand.PendingTasks;
import io.wanshuffle.spark.coordinator.event.ResidualBytes;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import io.wanshuffle.spark.coordinator.plan.BottleneckFirstOrder;
import io.wanshuffle.spark.coordinator.plan.PipelinedSteps;
import io.wanshuffle.spark.coordinator.plan.StepMode;
import io.wanshuffle.spark.coordinator.protocol.RegisterDemand;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The residual built from its non-zero cells ({@link DemandMatrix}) and the step walk over the
 * demands not in the plan ({@link DemandBook#notIn}) against the dense reading they replace, on
 * random residuals of two and three clusters (some demands fetching, idle or released; some
 * registered after the plan): the same instance cell for cell (so every scheduler plans it alike),
 * the same backbone k, the same bottleneck-first order, and the same step, which holds k and δ.
 */
class SparseResidualTest {
  private static final StepMode PIPELINED = new PipelinedSteps();
  private static final long SPEED = 12_500_000L;
  private static final StepScheduler AUTO = Algorithms.byName("auto");

  /** A random world: hosts a0.., b0.., c0..; demands registered in a book. */
  private static final class World {
    final FlowLeases leases;
    final DemandBook book = new DemandBook();
    final List<String> hosts = new ArrayList<>();
    final Random rnd;
    final int clusters;

    World(long seed) {
      rnd = new Random(seed);
      clusters = 2 + rnd.nextInt(2);
      int perCluster = 2 + rnd.nextInt(25);
      for (int c = 0; c < clusters; c++) {
        for (int h = 0; h < perCluster; h++) {
          hosts.add((char) ('a' + c) + String.valueOf(h));
        }
      }
      int k = 1 + rnd.nextInt(8);
      int delta = 1 + rnd.nextInt(2);
      Function<String, String> clusterOf = h -> h.substring(0, 1);
      leases = new FlowLeases(LinkModel.kpbs(k, h -> delta, clusterOf, SPEED), clusterOf);
    }

    /** Registers a demand of 1-4 sources in other clusters. */
    Demand register(long task) {
      String dst = hosts.get(rnd.nextInt(hosts.size()));
      List<String> src = new ArrayList<>();
      int want = 1 + rnd.nextInt(4);
      for (int tries = 0; src.size() < want && tries < 50; tries++) {
        String s = hosts.get(rnd.nextInt(hosts.size()));
        if (s.charAt(0) != dst.charAt(0) && !src.contains(s)) {
          src.add(s);
        }
      }
      long[] bytes = new long[src.size()];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = 1 + (long) (rnd.nextDouble() * 4e9);
      }
      return book.add(
          new RegisterDemand(3, 0, 7, task, "exec-" + dst, dst, src.toArray(new String[0]), bytes));
    }

    /** Some demands fetch part of their bytes, some are idle, some released. */
    void perturb() {
      for (Demand d : book.all()) {
        int r = rnd.nextInt(10);
        if (r == 0) {
          d.markIdle(true);
        } else if (r == 1) {
          d.release();
        } else if (r <= 3) {
          int i = rnd.nextInt(d.src().length);
          long budget = rnd.nextBoolean() ? d.remaining(i) : 1 + d.remaining(i) / 2;
          d.grant(new Demand.Grant(1, new int[] {i}, new long[] {budget}), false);
        }
      }
    }
  }

  /** The dense reading: every cell visited, hosts in order of first appearance. */
  private record Dense(String[] senders, String[] receivers, long[][] bytes, int backboneFlows) {}

  private static Dense dense(DemandBook book, FlowLeases leases) {
    Map<String, Integer> senders = new LinkedHashMap<>();
    Map<String, Integer> receivers = new LinkedHashMap<>();
    List<Demand> in = new ArrayList<>();
    List<long[]> futures = new ArrayList<>();
    for (Demand d : book.all()) {
      if (!d.plannable()) {
        continue;
      }
      long[] f = d.futureBytes();
      boolean any = false;
      for (int i = 0; i < d.src().length; i++) {
        if (f[i] > 0) {
          senders.putIfAbsent(d.src()[i], senders.size());
          any = true;
        }
      }
      if (any) {
        receivers.putIfAbsent(d.dst(), receivers.size());
        in.add(d);
        futures.add(f);
      }
    }
    String[] s = senders.keySet().toArray(new String[0]);
    String[] r = receivers.keySet().toArray(new String[0]);
    long[][] bytes = new long[s.length][r.length];
    for (int e = 0; e < in.size(); e++) {
      Demand d = in.get(e);
      for (int i = 0; i < d.src().length; i++) {
        if (futures.get(e)[i] > 0) {
          bytes[senders.get(d.src()[i])][receivers.get(d.dst())] += futures.get(e)[i];
        }
      }
    }
    LinkModel links = leases.links();
    Set<Integer> out = new HashSet<>();
    Set<Integer> inSides = new HashSet<>();
    for (int i = 0; i < s.length; i++) {
      for (int j = 0; j < r.length; j++) {
        if (bytes[i][j] > 0) {
          for (int l : links.route(s[i], r[j])) {
            if (links.isBackboneOut(l)) {
              out.add(l);
            } else if (links.isBackboneIn(l)) {
              inSides.add(l);
            }
          }
        }
      }
    }
    long o = out.stream().mapToLong(links::capacity).sum();
    long n = inSides.stream().mapToLong(links::capacity).sum();
    int k = (int) (out.isEmpty() || inSides.isEmpty() ? links.k() : Math.min(o, n));
    return new Dense(s, r, bytes, k);
  }

  private static TrafficMatrix seconds(long[][] bytes) {
    double[][] a = new double[bytes.length][];
    for (int i = 0; i < bytes.length; i++) {
      a[i] = new double[bytes[i].length];
      for (int j = 0; j < a[i].length; j++) {
        a[i][j] = bytes[i][j];
      }
    }
    return TrafficMatrix.of(a).inSecondsAt(SPEED);
  }

  @Test
  void theSparseResidualIsTheDenseOneCellForCell() {
    int compared = 0;
    for (long seed = 1; seed <= 150; seed++) {
      World w = new World(seed);
      int n = 1 + w.rnd.nextInt(300);
      for (long t = 1; t <= n; t++) {
        w.register(t);
      }
      w.perturb();
      DemandMatrix m = DemandMatrix.residual(w.book.all(), w.leases, PIPELINED, 0.01, SPEED);
      Dense d = dense(w.book, w.leases);
      if (m == null) {
        continue; // nothing can start: no plan either way
      }
      compared++;
      String at = "seed " + seed;
      assertArrayEquals(d.senders(), m.senders(), at);
      assertArrayEquals(d.receivers(), m.receivers(), at);
      for (int i = 0; i < d.bytes().length; i++) {
        for (int j = 0; j < d.bytes()[i].length; j++) {
          assertEquals(d.bytes()[i][j], m.bytes(i, j), at + ", cell " + i + ", " + j);
        }
      }
      assertEquals(
          ResidualBytes.ofDense(d.bytes()), m.residualBytes(), at + ": the plan event's residual");
      assertEquals(seconds(d.bytes()), m.matrix(), at + ": the scheduler's input");
      assertEquals(d.backboneFlows(), m.platform().k(), at + ": k per direction with demand");
      int nz = 0;
      for (long[] row : d.bytes()) {
        for (long b : row) {
          nz += b > 0 ? 1 : 0;
        }
      }
      assertEquals(nz, m.nonZeroRows().length, at);
      for (int e = 1; e < nz; e++) {
        long prev = (long) m.nonZeroRows()[e - 1] * m.receivers().length + m.nonZeroCols()[e - 1];
        long cur = (long) m.nonZeroRows()[e] * m.receivers().length + m.nonZeroCols()[e];
        assertTrue(prev < cur, at + ": non-zeros in row-major order");
      }
      Schedule plan = AUTO.schedule(m.matrix(), m.platform());
      double[] noneS = new double[m.senders().length];
      double[] noneR = new double[m.receivers().length];
      for (int i = 0; i < noneR.length; i++) {
        noneR[i] = w.rnd.nextInt(3) == 0 ? w.rnd.nextInt(1_000_000_000) : 0;
      }
      List<BottleneckFirstOrder.Ranked> viaCells =
          BottleneckFirstOrder.ranked(plan.steps(), d.bytes(), m.platform(), noneS, noneR);
      List<BottleneckFirstOrder.Ranked> viaNonZeros =
          BottleneckFirstOrder.ranked(
              plan.steps(),
              m.nonZeroRows(),
              m.nonZeroCols(),
              m.nonZeroBytes(),
              m.platform(),
              noneS,
              noneR);
      assertEquals(viaCells, viaNonZeros, at + ": the bottleneck-first order");
    }
    assertTrue(compared > 100, "most random residuals can start a flow: " + compared);
  }

  @Test
  void aStepFromTheDemandsNotInThePlanIsTheStepFromTheWholeBook() {
    int withAwaited = 0;
    int granted = 0;
    for (long seed = 1; seed <= 120; seed++) {
      World[] twins = {new World(seed), new World(seed)};
      Assemblies out = new Assemblies();
      for (int v = 0; v < 2; v++) {
        World w = twins[v];
        int n = 1 + w.rnd.nextInt(150);
        for (long t = 1; t <= n; t++) {
          w.register(t);
        }
        w.perturb();
        DemandMatrix m = DemandMatrix.residual(w.book.all(), w.leases, PIPELINED, 0.01, SPEED);
        if (m == null) {
          out.add(null, null, w);
          continue;
        }
        // registered while the plan was computed; some planned demands end
        int later = w.rnd.nextInt(20);
        for (long t = n + 1; t <= n + later; t++) {
          w.register(t);
        }
        for (Demand d : m.demands()) {
          if (w.rnd.nextInt(8) == 0) {
            d.release();
            w.book.forget(d);
          }
        }
        Map<String, Double> awaited = new HashMap<>();
        for (String h : w.hosts) {
          if (w.rnd.nextInt(6) == 0) {
            awaited.put(h, (double) w.rnd.nextInt(2_000_000_000));
          }
        }
        PendingTasks.Estimate expected = new PendingTasks.Estimate(Map.of(), Map.of(), awaited);
        Schedule plan = AUTO.schedule(m.matrix(), m.platform());
        StandingPlan sp =
            new StandingPlan(
                m, PIPELINED.order(plan.steps(), m, expected), expected, 1, "auto", w.leases);
        StepAssembler a =
            new StepAssembler(w.leases, new FlowKeeping(100), PIPELINED, /* gather ms */ 100);
        List<Demand> candidates =
            v == 0 ? new ArrayList<>(w.book.all()) : w.book.notIn(m.unplannedIds(), m.readUpTo());
        out.add(a.assemble(sp, () -> candidates, Set.of(), 1_000), m, w);
      }
      String at = "seed " + seed;
      StepAssembler.Assembly whole = out.assemblies.get(0);
      StepAssembler.Assembly narrowed = out.assemblies.get(1);
      if (whole == null) {
        assertEquals(null, narrowed, at);
        continue;
      }
      assertNotNull(narrowed, at);
      assertEquals(whole.flows(), narrowed.flows(), at + ": flows and budgets");
      assertEquals(whole.grants().keySet(), narrowed.grants().keySet(), at + ": demands granted");
      for (Long id : whole.grants().keySet()) {
        assertArrayEquals(whole.grants().get(id).srcIdx(), narrowed.grants().get(id).srcIdx(), at);
        assertArrayEquals(
            whole.grants().get(id).budgets(), narrowed.grants().get(id).budgets(), at);
      }
      assertEquals(whole.kept(), narrowed.kept(), at);
      assertEquals(whole.decisions(), narrowed.decisions(), at);
      assertEquals(whole.receiversPerPair(), narrowed.receiversPerPair(), at);
      withAwaited += whole.awaited().isEmpty() ? 0 : 1;
      granted += whole.isEmpty() ? 0 : 1;
      World w = out.worlds.get(1);
      assertLimitsHeld(w, narrowed, at);
    }
    assertTrue(granted > 60, "most random steps grant a flow: " + granted);
    assertTrue(withAwaited > 10, "awaited receivers are ranked in some steps: " + withAwaited);
  }

  /** Every link within its capacity, every host within δ, every budget within its demand. */
  private static void assertLimitsHeld(World w, StepAssembler.Assembly a, String at) {
    LinkModel links = w.leases.links();
    for (int l = 0; l < links.linkCount(); l++) {
      assertTrue(w.leases.used(l) <= links.capacity(l), at + ": link " + links.name(l));
    }
    for (String h : w.hosts) {
      assertTrue(w.leases.freeSend(h) >= 0, at + ": δ of " + h + " sending");
      assertTrue(w.leases.freeReceive(h) >= 0, at + ": δ of " + h + " receiving");
    }
    for (Map.Entry<Long, StepAssembler.DemandGrant> e : a.grants().entrySet()) {
      Demand d = w.book.get(e.getKey());
      for (int x = 0; x < e.getValue().srcIdx().length; x++) {
        long budget = e.getValue().budgets()[x];
        assertTrue(budget > 0 && budget <= d.remaining(e.getValue().srcIdx()[x]), at);
      }
    }
  }

  /** The two variants' results. */
  private static final class Assemblies {
    final List<StepAssembler.Assembly> assemblies = new ArrayList<>();
    final List<World> worlds = new ArrayList<>();

    void add(StepAssembler.Assembly a, DemandMatrix m, World w) {
      assemblies.add(a);
      worlds.add(w);
    }
  }

  @Test
  void platformShapesFollowTheMatrix() {
    World w = new World(7);
    for (long t = 1; t <= 40; t++) {
      w.register(t);
    }
    DemandMatrix m = DemandMatrix.residual(w.book.all(), w.leases, PIPELINED, 0.01, SPEED);
    assertNotNull(m);
    Platform p = m.platform();
    assertEquals(m.senders().length, p.senders());
    assertEquals(m.receivers().length, p.receivers());
  }
}
