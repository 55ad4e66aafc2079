package io.wanshuffle.spark.coordinator.demand;

import io.wanshuffle.spark.coordinator.event.StageRef;
import io.wanshuffle.spark.coordinator.event.StageSummary;
import io.wanshuffle.spark.coordinator.network.HostPair;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * One stage attempt's cross-cluster account, kept by the coordinator while the stage runs:
 * registered and realised bytes per host pair, the steps that granted to it and the shuffles it
 * read. Not thread-safe: guarded by the coordinator's lock.
 */
public final class StageAccount {
  private final StageRef stage;
  private final long firstDemandMs;
  private final TreeSet<Integer> shuffleIds = new TreeSet<>();

  /** host pair -> {registered bytes, realised bytes}. */
  private final Map<HostPair, long[]> bytes = new LinkedHashMap<>();

  private int steps;

  /**
   * @param stage the stage attempt
   * @param firstDemandMs its first registration (or ungated report), epoch ms
   */
  public StageAccount(StageRef stage, long firstDemandMs) {
    this.stage = stage;
    this.firstDemandMs = firstDemandMs;
  }

  /**
   * @param shuffleId a shuffle the stage reads
   */
  void readsShuffle(int shuffleId) {
    shuffleIds.add(shuffleId);
  }

  /** Counts one more step that granted flows to the stage. */
  void stepGranted() {
    steps++;
  }

  /**
   * @param p host pair
   * @param registered bytes registered as demand, to add
   * @param realised bytes reported fetched, to add
   */
  public void add(HostPair p, long registered, long realised) {
    long[] v = bytes.computeIfAbsent(p, x -> new long[2]);
    v[0] += registered;
    v[1] += realised;
  }

  /**
   * @param endMs the stage's completion, epoch ms
   * @return the stage's final matrices over the hosts involved, sorted by name
   */
  public StageSummary summary(long endMs) {
    TreeSet<String> hostSet = new TreeSet<>();
    for (HostPair p : bytes.keySet()) {
      hostSet.add(p.src());
      hostSet.add(p.dst());
    }
    List<String> hosts = List.copyOf(hostSet);
    Map<String, Integer> index = new HashMap<>();
    for (String h : hosts) {
      index.put(h, index.size());
    }
    long[][] reg = new long[hosts.size()][hosts.size()];
    long[][] real = new long[hosts.size()][hosts.size()];
    for (Map.Entry<HostPair, long[]> e : bytes.entrySet()) {
      int i = index.get(e.getKey().src());
      int j = index.get(e.getKey().dst());
      reg[i][j] += e.getValue()[0];
      real[i][j] += e.getValue()[1];
    }
    int[] ids = shuffleIds.stream().mapToInt(Integer::intValue).toArray();
    return new StageSummary(stage, ids, hosts, reg, real, steps, firstDemandMs, endMs);
  }

  /**
   * @param s a stage's summary
   * @return one line per host pair with traffic, {@code "\n src -> dst: registered R B, realised F
   *     B"}, for the driver log
   */
  public static String matrixLines(StageSummary s) {
    StringBuilder m = new StringBuilder();
    for (int i = 0; i < s.hosts().size(); i++) {
      for (int j = 0; j < s.hosts().size(); j++) {
        if (s.registeredBytes()[i][j] > 0 || s.realisedBytes()[i][j] > 0) {
          m.append("\n  ")
              .append(s.hosts().get(i))
              .append(" -> ")
              .append(s.hosts().get(j))
              .append(": registered ")
              .append(s.registeredBytes()[i][j])
              .append(" B, realised ")
              .append(s.realisedBytes()[i][j])
              .append(" B");
        }
      }
    }
    return m.toString();
  }

  /**
   * @return bytes realised across clusters over every host pair of {@code s}
   */
  public static long realisedTotal(StageSummary s) {
    long total = 0;
    for (long[] row : s.realisedBytes()) {
      for (long v : row) {
        total += v;
      }
    }
    return total;
  }
}
