package io.wanshuffle.scheduler.alg;

import io.wanshuffle.scheduler.topology.LinkNetwork;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.jgrapht.Graph;
import org.jgrapht.alg.flow.mincost.CapacityScalingMinimumCostFlow;
import org.jgrapht.alg.flow.mincost.MinimumCostFlowProblem;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleDirectedWeightedGraph;

/**
 * Chooses the pairs of one step on a {@link LinkNetwork}: a set of pairs in which no link carries
 * more than its capacity and which maximises Σ (1 + w(p)) over the chosen pairs p, w(p) ≥ 0 being a
 * pair's priority (how much it loads the bottleneck links).
 *
 * <p>When the routes form a tree (every sender-side link always has the same next link outwards,
 * every receiver-side link the same next link inwards; true for host / rack / cluster topologies
 * with cross-cluster traffic) the choice is an integral flow: source → outermost sender links → ...
 * → sender NIC → pair (capacity 1) → receiver NIC → ... → sink, each link an arc with its capacity,
 * and the step is a maximum-weight integral flow, solved as a minimum-cost flow with a bypass arc
 * (JGraphT's {@link CapacityScalingMinimumCostFlow}; it generalises OGGP's bottleneck matching,
 * GGP/OGGP paper sec. 6.3, to racks). Otherwise pairs are taken greedily by decreasing priority
 * while every link on their route has room.
 */
final class StepChooser {
  private final LinkNetwork net;
  private final int rows;
  private final int cols;
  private final int[][] routes;
  private final int[] senderSide;
  private final boolean tree;

  /** Parent link of a sender-side link (next outwards), -1 = source, -2 unset. */
  private final int[] senderParent;

  /** Parent link of a receiver-side link (next outwards), -1 = sink, -2 unset. */
  private final int[] receiverParent;

  /** Capacity of the arcs joining links: the number of enabled pairs of the current choice. */
  private int joinCap;

  private final boolean useFlow;

  /**
   * @param net the network
   * @param useFlow choose steps by min-cost flow when the routes form a tree (else greedy)
   */
  StepChooser(LinkNetwork net, boolean useFlow) {
    this.net = net;
    this.useFlow = useFlow;
    this.rows = net.rows();
    this.cols = net.cols();
    this.routes = new int[rows * cols][];
    this.senderSide = new int[rows * cols];
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        routes[i * cols + j] = net.route(i, j);
        senderSide[i * cols + j] = net.senderSideLength(i, j);
      }
    }
    senderParent = new int[net.linkCount()];
    receiverParent = new int[net.linkCount()];
    Arrays.fill(senderParent, -2);
    Arrays.fill(receiverParent, -2);
    this.tree = buildTree();
  }

  private boolean buildTree() {
    for (int p = 0; p < routes.length; p++) {
      int[] r = routes[p];
      int s = senderSide[p];
      if (s == 0 || s == r.length) {
        return false;
      }
      for (int x = 0; x < s; x++) {
        int parent = x + 1 < s ? r[x + 1] : -1;
        if (receiverParent[r[x]] != -2
            || (senderParent[r[x]] != -2 && senderParent[r[x]] != parent)) {
          return false;
        }
        senderParent[r[x]] = parent;
      }
      for (int x = r.length - 1; x >= s; x--) {
        int parent = x - 1 >= s ? r[x - 1] : -1;
        if (senderParent[r[x]] != -2
            || (receiverParent[r[x]] != -2 && receiverParent[r[x]] != parent)) {
          return false;
        }
        receiverParent[r[x]] = parent;
      }
    }
    return true;
  }

  /**
   * @return true when steps are chosen by min-cost flow (the routes form a tree)
   */
  boolean isTree() {
    return tree;
  }

  /**
   * @param weight per pair (row-major), the priority w(p) ≥ 0; pairs with {@code enabled[p]} false
   *     are not chosen
   * @param enabled which pairs still have demand
   * @return chosen[p] for every pair; at least one pair if any is enabled
   */
  boolean[] choose(double[] weight, boolean[] enabled) {
    return tree && useFlow ? chooseByFlow(weight, enabled) : chooseGreedy(weight, enabled);
  }

  boolean[] chooseGreedy(double[] weight, boolean[] enabled) {
    Integer[] order = new Integer[routes.length];
    for (int p = 0; p < order.length; p++) {
      order[p] = p;
    }
    Arrays.sort(order, (a, b) -> Double.compare(weight[b], weight[a]));
    int[] use = new int[net.linkCount()];
    boolean[] chosen = new boolean[routes.length];
    for (int p : order) {
      if (!enabled[p]) {
        continue;
      }
      boolean fits = true;
      for (int l : routes[p]) {
        fits &= use[l] < net.capacity(l);
      }
      if (fits) {
        chosen[p] = true;
        for (int l : routes[p]) {
          use[l]++;
        }
      }
    }
    return chosen;
  }

  private boolean[] chooseByFlow(double[] weight, boolean[] enabled) {
    int links = net.linkCount();
    Graph<Integer, DefaultWeightedEdge> g =
        new SimpleDirectedWeightedGraph<>(DefaultWeightedEdge.class);
    Map<DefaultWeightedEdge, Integer> cap = new HashMap<>();
    int source = 0;
    int sink = 1;
    g.addVertex(source);
    g.addVertex(sink);
    double wMax = 0;
    int supply = 0;
    for (int p = 0; p < routes.length; p++) {
      if (enabled[p]) {
        wMax = Math.max(wMax, weight[p]);
        supply++;
      }
    }
    joinCap = Math.max(1, supply);
    DefaultWeightedEdge[] pairEdge = new DefaultWeightedEdge[routes.length];
    for (int p = 0; p < routes.length; p++) {
      if (!enabled[p]) {
        continue;
      }
      int[] r = routes[p];
      for (int l : r) {
        addLinkArcsIfMissing(g, cap, l);
      }
      int pairNode = 2 + 2 * links + p;
      g.addVertex(pairNode);
      int innerSender = r[0];
      int innerReceiver = r[r.length - 1];
      DefaultWeightedEdge e = g.addEdge(outNode(innerSender), pairNode);
      g.setEdgeWeight(e, wMax - weight[p]);
      cap.put(e, 1);
      pairEdge[p] = e;
      DefaultWeightedEdge e2 = g.addEdge(pairNode, inNode(innerReceiver));
      g.setEdgeWeight(e2, 0);
      cap.put(e2, 1);
    }
    DefaultWeightedEdge bypass = g.addEdge(source, sink);
    g.setEdgeWeight(bypass, wMax + 1);
    cap.put(bypass, supply);
    final int sup = supply;
    MinimumCostFlowProblem<Integer, DefaultWeightedEdge> problem =
        new MinimumCostFlowProblem.MinimumCostFlowProblemImpl<>(
            g, v -> v == source ? sup : v == sink ? -sup : 0, cap::get);
    Map<DefaultWeightedEdge, Double> flow =
        new CapacityScalingMinimumCostFlow<Integer, DefaultWeightedEdge>()
            .getMinimumCostFlow(problem)
            .getFlowMap();
    boolean[] chosen = new boolean[routes.length];
    for (int p = 0; p < routes.length; p++) {
      if (pairEdge[p] != null && flow.getOrDefault(pairEdge[p], 0.0) > 0.5) {
        chosen[p] = true;
      }
    }
    return chosen;
  }

  private static int inNode(int l) {
    return 2 + 2 * l;
  }

  private static int outNode(int l) {
    return 3 + 2 * l;
  }

  /** Adds the arc of link l and the arc joining it to its parent (source or sink side). */
  private void addLinkArcs(
      Graph<Integer, DefaultWeightedEdge> g, Map<DefaultWeightedEdge, Integer> cap, int l) {
    g.addVertex(inNode(l));
    g.addVertex(outNode(l));
    DefaultWeightedEdge e = g.addEdge(inNode(l), outNode(l));
    g.setEdgeWeight(e, 0);
    cap.put(e, net.capacity(l));
    int from;
    int to;
    if (senderParent[l] != -2) {
      int parent = senderParent[l];
      if (parent >= 0) {
        addLinkArcsIfMissing(g, cap, parent);
      }
      from = parent >= 0 ? outNode(parent) : 0;
      to = inNode(l);
    } else {
      int parent = receiverParent[l];
      if (parent >= 0) {
        addLinkArcsIfMissing(g, cap, parent);
      }
      from = outNode(l);
      to = parent >= 0 ? inNode(parent) : 1;
    }
    if (!g.containsEdge(from, to)) {
      DefaultWeightedEdge j = g.addEdge(from, to);
      g.setEdgeWeight(j, 0);
      cap.put(j, joinCap);
    }
  }

  private void addLinkArcsIfMissing(
      Graph<Integer, DefaultWeightedEdge> g, Map<DefaultWeightedEdge, Integer> cap, int l) {
    if (!g.containsVertex(inNode(l))) {
      addLinkArcs(g, cap, l);
    }
  }
}
