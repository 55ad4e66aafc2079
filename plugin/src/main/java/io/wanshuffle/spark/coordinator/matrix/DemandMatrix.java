package io.wanshuffle.spark.coordinator.matrix;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.Schedule;
import io.wanshuffle.scheduler.Step;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.Transfer;
import io.wanshuffle.scheduler.topology.LinkNetwork;
import io.wanshuffle.spark.coordinator.demand.Demand;
import io.wanshuffle.spark.coordinator.event.ResidualBytes;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import io.wanshuffle.spark.coordinator.network.LinkFacts;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The residual cross-cluster demand as one KPBS instance: the traffic matrix of the demands that
 * can be planned now (sending host x receiving host, bytes), the same matrix in seconds at the base
 * speed for the scheduler, and the platform (k, β, δ per host) it is planned on. This is the one
 * place where bytes become seconds at the base speed b ({@link TrafficMatrix#inSecondsAt}: amount =
 * bytes / b) and where a planned transfer's seconds become a byte budget again ({@link
 * #budgetBytes}). Base-speed model: DGGP paper (Jeannot and Wagner), sec. 2.2.
 *
 * <p>Which demands and ports take part depends on the {@link ResidualScope} (barrier or pipelined
 * steps): barrier steps plan what the free capacity can start now (k and δ reduced by the open
 * flows, demands not fetching); pipelined steps plan every demand's future bytes (its residual
 * minus what its running grant fetches) on the whole platform with k per direction of the backbone
 * that has demand.
 *
 * <p>Built from the non-zero cells only: reading the residual costs O(demands x source hosts),
 * building it O(non-zeros log non-zeros), with no sender x receiver array (the scheduler's {@link
 * TrafficMatrix} and the plan event's {@link ResidualBytes} are sparse too); every pass over the
 * cells (the backbone flows, the link network, the bottleneck-first order) visits the non-zeros in
 * row-major order, as a dense pass would.
 *
 * <p>Immutable once built; the demands it refers to are the coordinator's (read under its lock).
 */
public final class DemandMatrix {
  private final List<Demand> demands;
  private final String[] senders;
  private final String[] receivers;

  /** The non-zero cells, row-major: row, column and bytes of each. */
  private final int[] nzRow;

  private final int[] nzCol;
  private final long[] nzBytes;

  /** Per non-zero cell, the link ids of its pair's route (shared arrays: never modified). */
  private final int[][] nzRoute;

  private final long readUpTo;
  private final long[] unplanned;
  private final TrafficMatrix matrix;
  private final Platform platform;
  private final LinkNetwork network;
  private final long baseSpeed;
  private final Map<String, List<Demand>> byReceiver = new HashMap<>();

  private DemandMatrix(
      ResidualSnapshot snap,
      String[] senders,
      String[] receivers,
      int[] nzRow,
      int[] nzCol,
      long[] nzBytes,
      int[][] nzRoute,
      Platform platform,
      LinkNetwork network,
      long baseSpeed) {
    this.demands = List.copyOf(snap.demands());
    this.nzRoute = nzRoute;
    this.senders = senders;
    this.receivers = receivers;
    this.nzRow = nzRow;
    this.nzCol = nzCol;
    this.nzBytes = nzBytes;
    this.platform = platform;
    this.network = network;
    this.baseSpeed = baseSpeed;
    this.readUpTo = snap.readUpTo();
    this.unplanned = snap.unplanned();
    int cols = receivers.length;
    // seconds at the base speed, as TrafficMatrix.inSecondsAt computes them, from the non-zeros
    double[] seconds = new double[nzRow.length];
    double speed = baseSpeed;
    for (int e = 0; e < nzRow.length; e++) {
      seconds[e] = nzBytes[e] / speed;
    }
    this.matrix = TrafficMatrix.ofCells(senders.length, cols, nzRow, nzCol, seconds);
    for (Demand d : this.demands) {
      byReceiver.computeIfAbsent(d.dst(), h -> new ArrayList<>()).add(d);
    }
  }

  /**
   * The residual demand that can be planned now.
   *
   * @param book the registered demands, in registration order
   * @param leases the open flows and the k and δ limits
   * @param mode barrier or pipelined steps: which demands, sources and ports take part
   * @param betaSeconds β, setup delay of a step, seconds
   * @param baseSpeed b, one flow's share of the backbone, bytes/s (at least 1)
   * @return the instance, or null when no demand could start a flow now (nothing to plan)
   */
  public static DemandMatrix residual(
      Collection<Demand> book,
      FlowLeases leases,
      ResidualScope mode,
      double betaSeconds,
      long baseSpeed) {
    ResidualSnapshot s = ResidualSnapshot.read(book, leases, mode, betaSeconds);
    return s == null ? null : of(s, leases, mode, betaSeconds, baseSpeed);
  }

  /**
   * Builds the instance of a snapshot; needs no lock (it reads only the snapshot and the immutable
   * link model).
   *
   * @param snap the residual demand read under the lock
   * @param leases the leases, for their link model and the hosts' ports (immutable parts only)
   * @param mode barrier or pipelined steps
   * @param betaSeconds β, setup delay of a step, seconds
   * @param baseSpeed b, one flow's share of the backbone, bytes/s (at least 1)
   * @return the instance
   */
  public static DemandMatrix of(
      ResidualSnapshot snap,
      FlowLeases leases,
      ResidualScope mode,
      double betaSeconds,
      long baseSpeed) {
    String[] s = snap.senders();
    String[] r = snap.receivers();
    int cols = r.length;
    if ((long) s.length * cols > Integer.MAX_VALUE) {
      throw new IllegalStateException(
          "a residual of " + s.length + " x " + cols + " hosts has more than 2^31 cells");
    }
    // every demand's future bytes per source as (cell, contribution) keys: sorted, they give the
    // non-zero cells in row-major order, the contributions to a cell in registration order
    int contributions = 0;
    for (long[] future : snap.futures()) {
      for (long f : future) {
        contributions += f > 0 ? 1 : 0;
      }
    }
    long[] keyed = new long[contributions];
    long[] amount = new long[contributions];
    int[][] routeOf = new int[contributions][];
    int n = 0;
    for (int e = 0; e < snap.demands().size(); e++) {
      int j = snap.columns()[e];
      long[] future = snap.futures().get(e);
      int[] rows = snap.rows().get(e);
      int[][] routes = snap.routes().get(e);
      for (int i = 0; i < future.length; i++) {
        if (future[i] > 0) {
          amount[n] = future[i];
          routeOf[n] = routes[i];
          keyed[n] = (((long) rows[i] * cols + j) << 32) | n;
          n++;
        }
      }
    }
    Arrays.sort(keyed);
    int nz = 0;
    long last = -1;
    for (long k : keyed) {
      nz += (k >>> 32) != last ? 1 : 0;
      last = k >>> 32;
    }
    int[] nzRow = new int[nz];
    int[] nzCol = new int[nz];
    long[] nzBytes = new long[nz];
    int[][] nzRoute = new int[nz][];
    int e = -1;
    last = -1;
    for (long k : keyed) {
      long cell = k >>> 32;
      if (cell != last) {
        e++;
        nzRow[e] = (int) (cell / cols);
        nzCol[e] = (int) (cell % cols);
        nzRoute[e] = routeOf[(int) k];
        last = cell;
      }
      nzBytes[e] += amount[(int) k];
    }
    Platform platform =
        snap.freePlatform() != null
            ? snap.freePlatform()
            : mode.platform(s, r, backboneFlows(nzRoute, leases), leases, betaSeconds);
    LinkNetwork network =
        leases.links().topologyAware()
            ? network(s, r, nzRow, nzCol, nzRoute, leases.links(), leases.facts(), platform)
            : null;
    return new DemandMatrix(
        snap, s, r, nzRow, nzCol, nzBytes, nzRoute, platform, network, baseSpeed);
  }

  /**
   * The flows the backbone carries for this matrix (the KPBS k of rack-blind plans): the smaller of
   * the summed windows of the outgoing backbone sides and of the incoming sides that the routes of
   * the pairs with traffic cross (two clusters: k per direction with traffic), at least 1.
   */
  private static int backboneFlows(int[][] nzRoute, FlowLeases leases) {
    LinkModel links = leases.links();
    LinkFacts facts = leases.facts();
    Set<Integer> out = new HashSet<>();
    Set<Integer> in = new HashSet<>();
    for (int[] route : nzRoute) {
      for (int l : route) {
        byte kind = facts.kind(l);
        if (kind == LinkFacts.BACKBONE_OUT) {
          out.add(l);
        } else if (kind == LinkFacts.BACKBONE_IN) {
          in.add(l);
        }
      }
    }
    long outFlows = out.stream().mapToLong(facts::window).sum();
    long inFlows = in.stream().mapToLong(facts::window).sum();
    long k = out.isEmpty() || in.isEmpty() ? links.k() : Math.min(outFlows, inFlows);
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, k));
  }

  /**
   * The matrix's links for a topology-aware plan: every link of every pair's route with its window
   * in flows (its capacity unless its window moved); sender-side links (NIC up, rack uplink,
   * backbone out) first.
   */
  private static LinkNetwork network(
      String[] s,
      String[] r,
      int[] nzRow,
      int[] nzCol,
      int[][] nzRoute,
      LinkModel links,
      LinkFacts facts,
      Platform platform) {
    LinkNetwork.Builder b = new LinkNetwork.Builder(s.length, r.length);
    Map<Integer, Integer> ids = new HashMap<>();
    for (int e = 0; e < nzRow.length; e++) {
      int i = nzRow[e];
      int j = nzCol[e];
      int[] route = nzRoute[e];
      int senderSide = 0;
      while (senderSide < route.length && links.isSenderSide(route[senderSide])) {
        senderSide++;
      }
      int[] mapped = new int[route.length];
      for (int x = 0; x < route.length; x++) {
        int l = route[x];
        // a link another application holds whole (a share of 0 flows) is planned at 1 flow: the
        // leases grant nothing on it until the share moves, and the plan is made again then
        mapped[x] =
            ids.computeIfAbsent(l, id -> b.addLink(links.name(id), Math.max(1, facts.window(id))));
      }
      b.route(
          i,
          j,
          Arrays.copyOfRange(mapped, 0, senderSide),
          Arrays.copyOfRange(mapped, senderSide, mapped.length));
    }
    int[] sd = new int[s.length];
    int[] rd = new int[r.length];
    Arrays.setAll(sd, platform::senderPorts);
    Arrays.setAll(rd, platform::receiverPorts);
    return b.build(platform.k(), sd, rd, links.baseSpeed());
  }

  /**
   * @return the rows of the non-zero cells of the residual, row-major order (shared array: do not
   *     modify)
   */
  public int[] nonZeroRows() {
    return nzRow;
  }

  /**
   * @return the columns of the non-zero cells, in the order of {@link #nonZeroRows()} (shared
   *     array: do not modify)
   */
  public int[] nonZeroCols() {
    return nzCol;
  }

  /**
   * @return the bytes of the non-zero cells, in the order of {@link #nonZeroRows()} (shared array:
   *     do not modify)
   */
  public long[] nonZeroBytes() {
    return nzBytes;
  }

  /**
   * @return the link ids of the route of each non-zero cell, in the order of {@link #nonZeroRows()}
   *     (shared arrays: do not modify)
   */
  public int[][] nonZeroRoutes() {
    return nzRoute;
  }

  /**
   * @return the largest id of the demands read for this matrix (0 when none): a demand of the book
   *     with a larger id registered after it was read
   */
  public long readUpTo() {
    return readUpTo;
  }

  /**
   * @return the ids of the demands read for this matrix but not in it (not plannable then, or no
   *     future bytes), in registration order (shared array: do not modify)
   */
  public long[] unplannedIds() {
    return unplanned;
  }

  /**
   * @return the demands in the matrix, in registration order
   */
  public List<Demand> demands() {
    return demands;
  }

  /**
   * @param receiver a receiving host
   * @return the demands in the matrix on that host, in registration order (empty when none)
   */
  public List<Demand> demandsOn(String receiver) {
    return byReceiver.getOrDefault(receiver, List.of());
  }

  /**
   * @return sending hosts: row i is {@code senders()[i]} (shared array: do not modify)
   */
  public String[] senders() {
    return senders;
  }

  /**
   * @return receiving hosts: column j is {@code receivers()[j]} (shared array: do not modify)
   */
  public String[] receivers() {
    return receivers;
  }

  /**
   * @param i sender row
   * @param j receiver column
   * @return bytes still to move from sender i to receiver j, 0 when none; O(log row degree)
   */
  public long bytes(int i, int j) {
    int at = matrix.nonZeroPosition(i, j);
    return at >= 0 ? nzBytes[at] : 0;
  }

  /**
   * @param i sender row
   * @param j receiver column
   * @param links the link model, for a pair without bytes in the matrix
   * @return the link ids of the route from sender i to receiver j (shared array: do not modify);
   *     O(log row degree) for a cell with bytes, else a look-up in {@code links}
   */
  public int[] route(int i, int j, LinkModel links) {
    int at = matrix.nonZeroPosition(i, j);
    return at >= 0 ? nzRoute[at] : links.route(senders[i], receivers[j]);
  }

  /**
   * @return the residual in bytes as its non-zero cells, sender x receiver (a copy)
   */
  public ResidualBytes residualBytes() {
    return ResidualBytes.ofCells(senders.length, receivers.length, nzRow, nzCol, nzBytes);
  }

  /**
   * @return the traffic matrix in seconds at the base speed, the scheduler's input
   */
  public TrafficMatrix matrix() {
    return matrix;
  }

  /**
   * @return the platform the instance is planned on: k, β seconds, δ per sender and receiver
   */
  public Platform platform() {
    return platform;
  }

  /**
   * @return the links of the matrix's routes with their capacities, when the topology needs them in
   *     planning ({@link LinkModel#topologyAware}); null on the KPBS platform
   */
  public LinkNetwork network() {
    return network;
  }

  /**
   * @return the base speed, bytes/s
   */
  public long baseSpeed() {
    return baseSpeed;
  }

  /**
   * The byte budget of a planned transfer: its seconds at the base speed, rounded up; the whole
   * pair when that leaves at most one byte of it (so rounding never leaves a 1-byte remainder).
   *
   * @param t a transfer of a plan of this matrix (seconds at the base speed)
   * @return bytes, at most the pair's bytes
   */
  public long budgetBytes(Transfer t) {
    long pair = bytes(t.src(), t.dst());
    long budget = (long) Math.ceil(t.amount() * baseSpeed);
    return budget >= pair - 1 ? pair : budget;
  }

  /**
   * @return a one-step schedule of the largest transfer alone: the plan of last resort, which
   *     always makes progress
   */
  public Schedule largestTransferOnly() {
    int bi = 0;
    int bj = 0;
    double best = 0;
    // the first largest in row-major order, as a dense pass finds it
    for (int i = 0; i < matrix.rows(); i++) {
      for (int x = 0; x < matrix.rowDegree(i); x++) {
        if (matrix.nonZeroAmount(i, x) > best) {
          best = matrix.nonZeroAmount(i, x);
          bi = i;
          bj = matrix.nonZeroCol(i, x);
        }
      }
    }
    return new Schedule(List.of(Step.of(List.of(new Transfer(bi, bj, best)))));
  }

  /**
   * @param byHost a value per host (absent: 0)
   * @return the values of the senders, by row
   */
  public double[] perSender(Map<String, Double> byHost) {
    return byIndex(byHost, senders);
  }

  /**
   * @param byHost a value per host (absent: 0)
   * @return the values of the receivers, by column
   */
  public double[] perReceiver(Map<String, Double> byHost) {
    return byIndex(byHost, receivers);
  }

  private static double[] byIndex(Map<String, Double> byHost, String[] hosts) {
    double[] out = new double[hosts.length];
    for (int i = 0; i < hosts.length; i++) {
      out[i] = byHost.getOrDefault(hosts[i], 0.0);
    }
    return out;
  }
}
