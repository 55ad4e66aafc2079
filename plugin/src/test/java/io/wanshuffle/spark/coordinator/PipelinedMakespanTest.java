package io.wanshuffle.spark.coordinator;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wanshuffle.scheduler.alg.Algorithms;
import io.wanshuffle.spark.config.WanShuffleConf;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How long the coordinator's pipelined steps take in its own time model ({@link FlowSimulation}:
 * every flow at the base speed, no RTT, β = 0), against the η lower bound
 * max(W(G), P(G) / k) of Cohen, Jeannot, Padoy, Wagner (sec. 5): with every demand known at once,
 * list-scheduling the plan bottleneck ports first keeps the most-loaded port busy to the end.
 * Measured when this test was written (30 skewed matrices, 3-6 hosts a side, k = 2..5): mean
 * ratio to η 1.002-1.016 per algorithm, worst 1.005-1.109; walking the plan in its own step order
 * instead gave means 1.027-1.107 and worst cases up to 1.289.
 */
class PipelinedMakespanTest {
  private static final double BASE_SPEED = 1_000_000; // bytes/s per flow

  static List<String> algorithms() {
    List<String> names = new ArrayList<>();
    for (String n : Algorithms.names()) {
      if (!n.equals("exact")) {
        names.add(n);
      }
    }
    return names;
  }

  @ParameterizedTest
  @MethodSource("algorithms")
  void oneWaveEndsCloseToTheLowerBound(String algorithm) {
    Random rnd = new Random(7);
    int rounds = 30;
    double ratios = 0;
    for (int round = 0; round < rounds; round++) {
      int senders = 3 + rnd.nextInt(4);
      int receivers = 3 + rnd.nextInt(4);
      int k = 2 + rnd.nextInt(Math.min(senders, receivers) - 2);
      List<FlowSimulation.Task> tasks = new ArrayList<>();
      for (int r = 0; r < receivers; r++) {
        String[] src = new String[senders];
        long[] bytes = new long[senders];
        for (int s = 0; s < senders; s++) {
          double z = rnd.nextDouble();
          src[s] = "a" + s;
          bytes[s] = 1 + (long) (3 * BASE_SPEED * z * z); // skewed: a few large transfers
        }
        tasks.add(new FlowSimulation.Task("b" + r, src, bytes));
      }
      double ratio = makespanOverEta(algorithm, k, tasks);
      ratios += ratio;
      assertTrue(ratio <= 1.15, algorithm + ", round " + round + ", " + senders + " x "
          + receivers + ", k = " + k + ": makespan / lower bound " + ratio);
    }
    double mean = ratios / rounds;
    assertTrue(mean <= 1.02, algorithm + ": mean makespan / lower bound " + mean);
  }

  /**
   * Two and three waves of reduce tasks (one task slot per receiving host; a host's next task
   * registers when its previous one ended) with the same skew per host pair in every wave, as when
   * the partitioning is skewed. The stage is submitted with each task preferring its host, as the
   * driver listener reports it, so the coordinator counts the expected bytes of the tasks still to
   * launch in the ports' loads ({@link PendingTasks}): a bottleneck host whose task is nearly done
   * no longer waits behind a lighter host's new, larger task. Measured when written: mean makespan
   * / η 1.011-1.045 per algorithm (auto 1.011); without the pending tasks (registered demand only)
   * 1.057-1.099, so the bound below fails without them. Earlier attempts without placement
   * knowledge: ranking by the stage's bytes so far while tasks are still to launch 1.060-1.084; a
   * bonus for the transfer completing a task's demand 1.075-1.118.
   */
  @ParameterizedTest
  @MethodSource("algorithms")
  void skewedWavesStayCloseToTheLowerBound(String algorithm) {
    Random rnd = new Random(11);
    int rounds = 30;
    double ratios = 0;
    for (int round = 0; round < rounds; round++) {
      int hosts = 3 + rnd.nextInt(3);
      int waves = 2 + rnd.nextInt(2);
      int k = 2;
      double[][] skew = new double[hosts][hosts];
      for (double[] row : skew) {
        for (int r = 0; r < hosts; r++) {
          row[r] = Math.pow(rnd.nextDouble(), 3);
        }
      }
      List<FlowSimulation.Task> tasks = new ArrayList<>();
      for (int w = 0; w < waves; w++) {
        for (int r = 0; r < hosts; r++) {
          String[] src = new String[hosts];
          long[] bytes = new long[hosts];
          for (int s = 0; s < hosts; s++) {
            src[s] = "a" + s;
            bytes[s] = 1 + (long) (3 * BASE_SPEED * skew[s][r]);
          }
          tasks.add(new FlowSimulation.Task("b" + r, src, bytes));
        }
      }
      ratios += makespanOverEta(algorithm, k, tasks);
    }
    double mean = ratios / rounds;
    assertTrue(mean <= 1.05, algorithm + ": mean makespan / lower bound " + mean);
  }

  /**
   * Runs the tasks through a pipelined coordinator and checks the makespan is not below η.
   *
   * @return makespan / η
   */
  private static double makespanOverEta(String algorithm, int k, List<FlowSimulation.Task> tasks) {
    double etaMs = etaMs(tasks, k);
    ManualTimer timer = new ManualTimer();
    long ms = FlowSimulation.makespanMs(coordinator(algorithm, k, timer), timer, tasks);
    assertTrue(ms >= etaMs - 1, "faster than the lower bound: " + ms + " < " + etaMs);
    return ms / etaMs;
  }

  /** A pipelined coordinator: k flows of {@link #BASE_SPEED} each, δ = 1, β = 0. */
  private static StepCoordinator coordinator(String algorithm, int k, ManualTimer timer) {
    WanShuffleConf conf = WanShuffleConf.from(new SparkConf(false)
        .set(WanShuffleConf.ALGORITHM, algorithm)
        .set(WanShuffleConf.K, Integer.toString(k))
        .set(WanShuffleConf.DELTA, "1")
        .set(WanShuffleConf.BETA, "0ms")
        .set(WanShuffleConf.STEP_MIN_DEADLINE, "1h")
        .set(WanShuffleConf.PLANNING_BUDGET, "0")
        .set(WanShuffleConf.BACKBONE_RATE, Long.toString((long) BASE_SPEED * k)),
        Set.copyOf(Algorithms.names()));
    return new StepCoordinator(conf, Algorithms.byName(algorithm), List.of(), timer, timer::now);
  }

  /**
   * @return η in ms for the tasks' host x host matrix with β = 0: max(busiest port's bytes, all
   *     bytes / k) at {@link #BASE_SPEED}
   */
  private static double etaMs(List<FlowSimulation.Task> tasks, int k) {
    Map<String, Long> ports = new HashMap<>();
    long total = 0;
    for (FlowSimulation.Task t : tasks) {
      for (int s = 0; s < t.src().length; s++) {
        ports.merge("send " + t.src()[s], t.bytes()[s], Long::sum);
        ports.merge("receive " + t.dst(), t.bytes()[s], Long::sum);
        total += t.bytes()[s];
      }
    }
    long busiestPort = ports.values().stream().mapToLong(Long::longValue).max().orElse(0);
    return 1000 * Math.max(busiestPort, (double) total / k) / BASE_SPEED;
  }
}
