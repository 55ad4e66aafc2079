package io.wanshuffle.bench.liquid;

import io.wanshuffle.scheduler.LowerBound;
import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.StepScheduler;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.alg.Algorithms;
import io.wanshuffle.scheduler.alg.LiquidStepScheduler;
import io.wanshuffle.scheduler.topology.LinkCapacitySplit;
import io.wanshuffle.scheduler.topology.LinkCapacityValidator;
import io.wanshuffle.scheduler.topology.LinkLowerBound;
import io.wanshuffle.scheduler.topology.LinkNetwork;
import io.wanshuffle.scheduler.topology.Topology;
import io.wanshuffle.scheduler.workload.Coflow;
import io.wanshuffle.scheduler.workload.CoflowTrace;
import io.wanshuffle.scheduler.workload.CrossClusterShuffle;
import io.wanshuffle.scheduler.workload.TwoClusterSplit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code liquid} against a rack-blind KPBS algorithm on two-cluster topologies built from a
 * Coflow-Benchmark trace: the trace's ports (rack-level mappers and reducers) become hosts, split
 * in two clusters by {@link TwoClusterSplit#halves}; each cluster has 4 racks of consecutive hosts;
 * NICs run at one base speed, each rack uplink and downlink at half its hosts' NICs (2:1
 * oversubscription, rounded up), each cluster's side of the backbone at a given number of NICs.
 * Each coflow's A-to-B part ({@link TwoClusterSplit#crossCluster}) is one instance.
 *
 * <p>For each instance: cost of {@code liquid} on the link network; cost of the rack-blind
 * algorithm on the KPBS view (k = backbone, δ = NICs), the number of (step, link) pairs where its
 * steps overload a link, and the cost once its overloaded steps are split into feasible ones; the
 * generalised lower bound ({@link LinkLowerBound}).
 */
final class FacebookRacks {
  /** Racks per cluster. */
  static final int RACKS_PER_CLUSTER = 4;

  /**
   * One coflow's outcome (costs in seconds).
   *
   * @param coflowId the coflow's id in the trace
   * @param rows sender hosts
   * @param cols receiver hosts
   * @param bound generalised lower bound η on the link network
   * @param kpbsBound the KPBS η (backbone and NICs only)
   * @param liquid cost of liquid
   * @param flowOnly cost of liquid's flow-chosen steps alone (without the split rack-blind
   *     candidate)
   * @param blind cost of the rack-blind algorithm as planned (ignoring its overloads)
   * @param blindSplit cost of the rack-blind schedule with overloaded steps split
   * @param overloads (step, link) pairs of the rack-blind schedule over capacity
   * @param blindSteps steps of the rack-blind schedule
   * @param liquidSeconds wall time of liquid
   */
  record Row(
      long coflowId,
      int rows,
      int cols,
      double bound,
      double kpbsBound,
      double liquid,
      double flowOnly,
      double blind,
      double blindSplit,
      int overloads,
      int blindSteps,
      double liquidSeconds) {}

  private FacebookRacks() {}

  /**
   * @param traceFile the trace
   * @param backboneNics each cluster side of the backbone, in NICs
   * @param beta setup delay per step, seconds
   * @param blindName the rack-blind algorithm
   * @param maxPairs instances with more sender x receiver pairs are skipped (counted)
   * @param work a scratch directory for the topology files
   * @param skipped out: [0] = instances skipped for size
   * @return one row per instance
   * @throws IOException if the trace or the scratch files fail
   */
  static List<Row> run(
      Path traceFile,
      Layout layout,
      int backboneNics,
      double beta,
      String blindName,
      int maxPairs,
      Path work,
      int[] skipped)
      throws IOException {
    CoflowTrace trace = CoflowTrace.parse(traceFile);
    TwoClusterSplit split = TwoClusterSplit.halves(trace.racks());
    long nic = 125_000_000L;
    Topology fixed =
        layout == Layout.FIXED
            ? Topology.load(writeTopology(trace.racks(), split, nic, backboneNics, work))
            : null;
    StepScheduler blind = Algorithms.byName(blindName);
    List<Row> rows = new ArrayList<>();
    for (Coflow c : trace.coflows()) {
      Optional<CrossClusterShuffle> x = split.crossCluster(c, TwoClusterSplit.Direction.A_TO_B);
      if (x.isEmpty()) {
        continue;
      }
      CrossClusterShuffle s = x.get();
      int r = s.senderRacks().length;
      int k = s.receiverRacks().length;
      if ((long) r * k > maxPairs) {
        skipped[0]++;
        continue;
      }
      Topology topology =
          fixed != null
              ? fixed
              : Topology.load(
                  writeActiveTopology(s, nic, backboneNics, work.resolve("coflow-" + c.id())));
      LinkNetwork net = topology.network(hostNames(s.senderRacks()), hostNames(s.receiverRacks()));
      TrafficMatrix m = s.seconds(net.baseSpeed());
      Platform p = net.platform(beta);
      long t0 = System.nanoTime();
      Schedule liquid = new LiquidStepScheduler(net).schedule(m, p);
      double secs = (System.nanoTime() - t0) / 1e9;
      liquid.validate(m, p);
      LinkCapacityValidator.validate(liquid, m, net);
      Schedule flow = LiquidStepScheduler.flowStepsOnly(net).schedule(m, p);
      LinkCapacityValidator.validate(flow, m, net);
      Schedule b = blind.schedule(m, p);
      b.validate(m, p);
      Schedule bs = splitOverloaded(b, net);
      LinkCapacityValidator.validate(bs, m, net);
      rows.add(
          new Row(
              c.id(),
              r,
              k,
              LinkLowerBound.of(m, net, beta).eta(),
              LowerBound.of(m, p).eta(),
              liquid.cost(beta),
              flow.cost(beta),
              b.cost(beta),
              bs.cost(beta),
              LinkCapacityValidator.overloads(b, net),
              b.stepCount(),
              secs));
    }
    return rows;
  }

  /** How hosts are placed in racks. */
  enum Layout {
    /** every trace port is a host; each cluster's hosts form 4 racks of consecutive ports */
    FIXED,
    /** per coflow, only its hosts: each cluster's hosts of the coflow form 4 racks */
    ACTIVE
  }

  /** Topology files of the ACTIVE layout for one instance. */
  static Path writeActiveTopology(CrossClusterShuffle s, long nic, int backboneNics, Path work)
      throws IOException {
    Files.createDirectories(work);
    StringBuilder table = new StringBuilder("# coflow host -> /cluster/rack\n");
    StringBuilder conf = new StringBuilder("mapping.table = fb.table\n");
    conf.append("nic.rate = ").append(nic).append('\n');
    conf.append("backbone.rate = ").append(nic * backboneNics).append('\n');
    String[] cluster = {"A", "B"};
    int[][] hosts = {s.senderRacks(), s.receiverRacks()};
    for (int c = 0; c < 2; c++) {
      int n = hosts[c].length;
      int[] inRack = new int[RACKS_PER_CLUSTER];
      for (int h = 0; h < n; h++) {
        int r = (int) ((long) h * RACKS_PER_CLUSTER / n);
        inRack[r]++;
        table
            .append(host(hosts[c][h]))
            .append(" /dc")
            .append(cluster[c])
            .append("/r")
            .append(r)
            .append('\n');
      }
      for (int r = 0; r < RACKS_PER_CLUSTER; r++) {
        if (inRack[r] > 0) {
          conf.append("rack.rate[/dc")
              .append(cluster[c])
              .append("/r")
              .append(r)
              .append("] = ")
              .append(nic * ((inRack[r] + 1) / 2))
              .append('\n');
        }
      }
    }
    Files.writeString(work.resolve("fb.table"), table);
    Path c = work.resolve("fb-topology.conf");
    Files.writeString(c, conf);
    return c;
  }

  /**
   * Host of a trace port: an IP address (10.0.x.y), as Hadoop topology tables usually list them;
   * Hadoop's mapping turns names into addresses by DNS before the table lookup, which IP literals
   * skip.
   */
  static String host(int port) {
    return "10.0." + (port / 200) + "." + (port % 200 + 1);
  }

  private static List<String> hostNames(int[] ports) {
    List<String> n = new ArrayList<>();
    for (int p : ports) {
      n.add(host(p));
    }
    return n;
  }

  /** Splits each step, first fit by decreasing amount, until no link is overloaded. */
  static Schedule splitOverloaded(Schedule s, LinkNetwork net) {
    return LinkCapacitySplit.split(s, net);
  }

  /**
   * Writes the mapping table and the topology configuration.
   *
   * @return the configuration file
   */
  static Path writeTopology(int ports, TwoClusterSplit split, long nic, int backboneNics, Path work)
      throws IOException {
    Files.createDirectories(work);
    StringBuilder table = new StringBuilder("# trace port -> /cluster/rack\n");
    StringBuilder conf = new StringBuilder("mapping.table = fb.table\n");
    conf.append("nic.rate = ").append(nic).append('\n');
    conf.append("backbone.rate = ").append(nic * backboneNics).append('\n');
    for (String cluster : new String[] {"A", "B"}) {
      List<Integer> hosts = new ArrayList<>();
      for (int p = 0; p < ports; p++) {
        if (split.inA(p) == cluster.equals("A")) {
          hosts.add(p);
        }
      }
      int perRack = (hosts.size() + RACKS_PER_CLUSTER - 1) / RACKS_PER_CLUSTER;
      for (int r = 0; r < RACKS_PER_CLUSTER; r++) {
        int from = r * perRack;
        int to = Math.min(hosts.size(), from + perRack);
        if (from >= to) {
          continue;
        }
        String rack = "/dc" + cluster + "/r" + r;
        for (int h = from; h < to; h++) {
          table.append(host(hosts.get(h))).append(' ').append(rack).append('\n');
        }
        long uplink = nic * ((to - from + 1) / 2);
        conf.append("rack.rate[").append(rack).append("] = ").append(uplink).append('\n');
      }
    }
    Files.writeString(work.resolve("fb.table"), table);
    Path c = work.resolve("fb-topology.conf");
    Files.writeString(c, conf);
    return c;
  }
}
