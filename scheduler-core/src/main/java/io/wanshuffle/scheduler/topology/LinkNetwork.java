package io.wanshuffle.scheduler.topology;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The links a traffic matrix's transfers use, with capacities in flows: for every pair (sender row
 * i, receiver column j) its route, a list of link ids, and for every link the number of transfers
 * at base speed it carries at once (capacity in bytes/s divided by the base speed). A KPBS step is
 * valid on the network when no link carries more transfers than its capacity (liquid-schedules
 * paper, Gabrielyan and Hersch, sec. 3: a transfer is the set of links of its path; here a link may
 * carry several transfers, as the backbone carries k in the KPBS model).
 *
 * <p>A route lists its sender-side links from the sender outwards (NIC up, rack uplink, backbone
 * out) and then its receiver-side links from the core inwards (backbone in, rack downlink, NIC
 * down); {@link #senderSideLength} says where the receiver side starts. {@link #platform} gives the
 * KPBS view of the same network (k from the backbone, δ from the NICs) for algorithms blind to
 * racks.
 */
public final class LinkNetwork {
  private final int rows;
  private final int cols;
  private final String[] linkNames;
  private final int[] capacity;
  private final int[][] routes;
  private final int[] senderSide;
  private final int k;
  private final int[] senderDelta;
  private final int[] receiverDelta;
  private final long baseSpeed;

  private LinkNetwork(
      int rows,
      int cols,
      String[] linkNames,
      int[] capacity,
      int[][] routes,
      int[] senderSide,
      int k,
      int[] senderDelta,
      int[] receiverDelta,
      long baseSpeed) {
    this.rows = rows;
    this.cols = cols;
    this.linkNames = linkNames;
    this.capacity = capacity;
    this.routes = routes;
    this.senderSide = senderSide;
    this.k = k;
    this.senderDelta = senderDelta;
    this.receiverDelta = receiverDelta;
    this.baseSpeed = baseSpeed;
  }

  /**
   * The network of a plain KPBS platform: one link per sender NIC (capacity δ(i)), one per receiver
   * NIC (δ(j)) and the backbone (k). Steps valid on it are exactly the steps valid for the
   * platform.
   *
   * @param p the platform
   * @return its network; base speed unknown (0)
   */
  public static LinkNetwork flat(Platform p) {
    Builder b = new Builder(p.senders(), p.receivers());
    int backbone = b.addLink("backbone", p.k());
    int[] up = new int[p.senders()];
    int[] down = new int[p.receivers()];
    for (int i = 0; i < up.length; i++) {
      up[i] = b.addLink("nic.up[" + i + "]", p.senderPorts(i));
    }
    for (int j = 0; j < down.length; j++) {
      down[j] = b.addLink("nic.down[" + j + "]", p.receiverPorts(j));
    }
    for (int i = 0; i < up.length; i++) {
      for (int j = 0; j < down.length; j++) {
        b.route(i, j, new int[] {up[i], backbone}, new int[] {down[j]});
      }
    }
    int[] ds = new int[p.senders()];
    int[] dr = new int[p.receivers()];
    Arrays.setAll(ds, p::senderPorts);
    Arrays.setAll(dr, p::receiverPorts);
    return b.build(p.k(), ds, dr, 0);
  }

  /**
   * Builds a network link by link (for topologies other than host/rack/cluster trees, and tests).
   */
  public static final class Builder {
    private final int rows;
    private final int cols;
    private final List<String> names = new ArrayList<>();
    private final List<Integer> caps = new ArrayList<>();
    private final int[][] routes;
    private final int[] senderSide;

    /**
     * @param rows senders, ≥ 1
     * @param cols receivers, ≥ 1
     */
    public Builder(int rows, int cols) {
      if (rows < 1 || cols < 1) {
        throw new IllegalArgumentException("network needs at least one sender and one receiver");
      }
      this.rows = rows;
      this.cols = cols;
      this.routes = new int[rows * cols][];
      this.senderSide = new int[rows * cols];
    }

    /**
     * @param name a readable name for messages
     * @param flows capacity: transfers the link carries at once, ≥ 1
     * @return the link's id
     */
    public int addLink(String name, int flows) {
      if (flows < 1) {
        throw new IllegalArgumentException(
            "link " + name + " needs a capacity >= 1 flow, got " + flows);
      }
      names.add(name);
      caps.add(flows);
      return names.size() - 1;
    }

    /**
     * @param i sender row
     * @param j receiver column
     * @param senderLinks links on the sender side, from the sender outwards
     * @param receiverLinks links on the receiver side, from the core inwards to the receiver
     * @return this builder
     * @throws IllegalArgumentException on an unknown or repeated link id
     */
    public Builder route(int i, int j, int[] senderLinks, int[] receiverLinks) {
      int[] r = new int[senderLinks.length + receiverLinks.length];
      System.arraycopy(senderLinks, 0, r, 0, senderLinks.length);
      System.arraycopy(receiverLinks, 0, r, senderLinks.length, receiverLinks.length);
      for (int x = 0; x < r.length; x++) {
        if (r[x] < 0 || r[x] >= names.size()) {
          throw new IllegalArgumentException("route " + i + "->" + j + ": unknown link id " + r[x]);
        }
        for (int y = 0; y < x; y++) {
          if (r[y] == r[x]) {
            throw new IllegalArgumentException(
                "route " + i + "->" + j + " uses link " + names.get(r[x]) + " twice");
          }
        }
      }
      routes[i * cols + j] = r;
      senderSide[i * cols + j] = senderLinks.length;
      return this;
    }

    /**
     * @param k KPBS backbone capacity for {@link LinkNetwork#platform}, ≥ 1
     * @param senderDelta δ per sender for {@link LinkNetwork#platform}
     * @param receiverDelta δ per receiver
     * @param baseSpeed bytes/s of one flow, 0 if unknown
     * @return the network; pairs without a route use no link
     */
    public LinkNetwork build(int k, int[] senderDelta, int[] receiverDelta, long baseSpeed) {
      int[][] r = new int[routes.length][];
      for (int p = 0; p < r.length; p++) {
        r[p] = routes[p] == null ? new int[0] : routes[p];
      }
      int[] c = caps.stream().mapToInt(Integer::intValue).toArray();
      return new LinkNetwork(
          rows,
          cols,
          names.toArray(new String[0]),
          c,
          r,
          senderSide.clone(),
          k,
          senderDelta.clone(),
          receiverDelta.clone(),
          baseSpeed);
    }
  }

  /**
   * @return number of senders (matrix rows)
   */
  public int rows() {
    return rows;
  }

  /**
   * @return number of receivers (matrix columns)
   */
  public int cols() {
    return cols;
  }

  /**
   * @return number of links
   */
  public int linkCount() {
    return capacity.length;
  }

  /**
   * @return capacity of link l in flows (transfers at base speed at once), ≥ 1
   */
  public int capacity(int l) {
    return capacity[l];
  }

  /**
   * @return readable name of link l, e.g. {@code rack.uplink[/dc1/r2]}
   */
  public String linkName(int l) {
    return linkNames[l];
  }

  /**
   * @return a copy of the link ids pair (i, j) uses: sender side outwards, then receiver side
   *     inwards
   */
  public int[] route(int i, int j) {
    return routes[i * cols + j].clone();
  }

  /**
   * @return how many of {@link #route}'s first links are on the sender side
   */
  public int senderSideLength(int i, int j) {
    return senderSide[i * cols + j];
  }

  /**
   * @return base speed in bytes/s (one flow), 0 when the network was not built from rates
   */
  public long baseSpeed() {
    return baseSpeed;
  }

  /**
   * The KPBS platform of this network as a rack-blind algorithm sees it: k from the backbone
   * (flows), δ from the NICs (capped by k).
   *
   * @param beta setup delay per step, seconds
   * @return the platform
   */
  public Platform platform(double beta) {
    return Platform.of(k, beta, senderDelta, receiverDelta);
  }

  /**
   * @param m a traffic matrix
   * @throws IllegalArgumentException if its shape differs from this network's
   */
  public void requireShape(TrafficMatrix m) {
    if (m.rows() != rows || m.cols() != cols) {
      throw new IllegalArgumentException(
          "traffic matrix is "
              + m.rows()
              + " x "
              + m.cols()
              + " but the link network describes "
              + rows
              + " senders x "
              + cols
              + " receivers");
    }
  }

  /**
   * This network with a platform's KPBS limits added as links: a "k" link on every route (capacity
   * k, outermost on the sender side) and per-node δ links (innermost), so that steps valid on the
   * result are valid both on this network and for the platform ({@code Schedule.validate}).
   *
   * @param p platform of the same shape
   * @return the constrained network (same base speed and KPBS view)
   * @throws IllegalArgumentException if shapes differ
   */
  public LinkNetwork constrainedBy(Platform p) {
    if (p.senders() != rows || p.receivers() != cols) {
      throw new IllegalArgumentException(
          "platform is "
              + p.senders()
              + " x "
              + p.receivers()
              + " but the link network describes "
              + rows
              + " x "
              + cols);
    }
    Builder b = new Builder(rows, cols);
    for (int l = 0; l < capacity.length; l++) {
      b.addLink(linkNames[l], capacity[l]);
    }
    int kLink = b.addLink("kpbs.k", p.k());
    int[] ds = new int[rows];
    int[] dr = new int[cols];
    for (int i = 0; i < rows; i++) {
      ds[i] = b.addLink("kpbs.delta.sender[" + i + "]", p.senderPorts(i));
    }
    for (int j = 0; j < cols; j++) {
      dr[j] = b.addLink("kpbs.delta.receiver[" + j + "]", p.receiverPorts(j));
    }
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        int[] r = routes[i * cols + j];
        int s = senderSide[i * cols + j];
        int[] sl = new int[s + 2];
        sl[0] = ds[i];
        System.arraycopy(r, 0, sl, 1, s);
        sl[s + 1] = kLink;
        int[] rl = new int[r.length - s + 1];
        System.arraycopy(r, s, rl, 0, r.length - s);
        rl[rl.length - 1] = dr[j];
        b.route(i, j, sl, rl);
      }
    }
    return b.build(k, senderDelta, receiverDelta, baseSpeed);
  }

  @Override
  public String toString() {
    return "LinkNetwork["
        + rows
        + "x"
        + cols
        + ", "
        + capacity.length
        + " links, k="
        + k
        + ", base "
        + baseSpeed
        + " B/s]";
  }
}
