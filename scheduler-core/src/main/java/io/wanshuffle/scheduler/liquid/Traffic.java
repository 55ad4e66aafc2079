package io.wanshuffle.scheduler.liquid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A traffic of unit-size transfers, each the set of links of its path; every link carries one
 * transfer at a time (liquid-schedules paper, Gabrielyan and Hersch, sec. 3, definitions).
 *
 * <p>Terms, as in the paper: the <em>load</em> of a link is the number of transfers using it; the
 * most loaded links are the <em>bottlenecks</em>; their load is the <em>duration</em> Λ(X), a lower
 * bound on the number of time frames of any schedule; the <em>liquid throughput</em> is #(X)/Λ(X)
 * link throughputs. A subset is <em>simultaneous</em> if no two of its transfers share a link; a
 * <em>team</em> is a simultaneous subset using every bottleneck; it is <em>full</em> if every other
 * transfer shares a link with it (sec. 3.2).
 *
 * <p>Transfers are numbered 0..size()-1 and links 0..linkCount()-1. Immutable.
 */
public final class Traffic {
  private final String[] names;
  private final String[] linkNames;
  private final int[][] links;
  private final int[] load;

  private Traffic(String[] names, String[] linkNames, int[][] links) {
    this.names = names;
    this.linkNames = linkNames;
    this.links = links;
    this.load = new int[linkNames.length];
    for (int[] t : links) {
      for (int l : t) {
        load[l]++;
      }
    }
  }

  /**
   * @param transfers transfer name to the names of the links it uses, in order (at least one
   *     transfer; each with at least one link; a link named twice in one transfer counts once)
   * @return the traffic; links are numbered in order of first appearance
   * @throws IllegalArgumentException for an empty traffic or a transfer without links
   */
  public static Traffic of(Map<String, List<String>> transfers) {
    if (transfers.isEmpty()) {
      throw new IllegalArgumentException("traffic has no transfers");
    }
    Map<String, Integer> linkId = new LinkedHashMap<>();
    String[] names = new String[transfers.size()];
    int[][] links = new int[transfers.size()][];
    int t = 0;
    for (Map.Entry<String, List<String>> e : transfers.entrySet()) {
      if (e.getValue().isEmpty()) {
        throw new IllegalArgumentException("transfer " + e.getKey() + " uses no link");
      }
      names[t] = e.getKey();
      links[t] =
          e.getValue().stream()
              .mapToInt(l -> linkId.computeIfAbsent(l, x -> linkId.size()))
              .distinct()
              .toArray();
      t++;
    }
    return new Traffic(names, linkId.keySet().toArray(new String[0]), links);
  }

  /**
   * @param links {@code links[t]} = link ids of transfer t (each in 0..linkCount-1)
   * @param linkCount number of links
   * @return a traffic with transfers named "x0", "x1", ... and links "l0", "l1", ...
   * @throws IllegalArgumentException for an empty traffic, a transfer without links or a bad id
   */
  public static Traffic ofLinkIds(int[][] links, int linkCount) {
    if (links.length == 0) {
      throw new IllegalArgumentException("traffic has no transfers");
    }
    String[] names = new String[links.length];
    String[] linkNames = new String[linkCount];
    int[][] copy = new int[links.length][];
    for (int t = 0; t < links.length; t++) {
      names[t] = "x" + t;
      if (links[t].length == 0) {
        throw new IllegalArgumentException("transfer " + t + " uses no link");
      }
      for (int l : links[t]) {
        if (l < 0 || l >= linkCount) {
          throw new IllegalArgumentException(
              "transfer " + t + " uses link " + l + ", outside 0.." + (linkCount - 1));
        }
      }
      copy[t] = Arrays.stream(links[t]).distinct().toArray();
    }
    for (int l = 0; l < linkCount; l++) {
      linkNames[l] = "l" + l;
    }
    return new Traffic(names, linkNames, copy);
  }

  /**
   * @return #(X), the number of transfers
   */
  public int size() {
    return links.length;
  }

  /**
   * @return number of links
   */
  public int linkCount() {
    return linkNames.length;
  }

  /**
   * @return name of transfer t
   */
  public String name(int t) {
    return names[t];
  }

  /**
   * @return name of link l
   */
  public String linkName(int l) {
    return linkNames[l];
  }

  /**
   * @return a copy of the link ids transfer t uses
   */
  public int[] links(int t) {
    return links[t].clone();
  }

  int[][] linksRef() {
    return links;
  }

  /**
   * @return the load of link l: how many transfers use it
   */
  public int load(int l) {
    return load[l];
  }

  /**
   * @return Λ(X): the load of the bottlenecks, the liquid lower bound on the number of frames
   */
  public int duration() {
    int m = 0;
    for (int x : load) {
      m = Math.max(m, x);
    }
    return m;
  }

  /**
   * @return the ids of the bottleneck links (load = Λ), ascending
   */
  public int[] bottlenecks() {
    int d = duration();
    List<Integer> b = new ArrayList<>();
    for (int l = 0; l < load.length; l++) {
      if (load[l] == d) {
        b.add(l);
      }
    }
    return b.stream().mapToInt(Integer::intValue).toArray();
  }

  /**
   * @return #(X)/Λ(X): the liquid throughput in units of one link's throughput
   */
  public double liquidThroughput() {
    return (double) size() / duration();
  }

  /**
   * @return true if no two of the given transfers share a link
   */
  public boolean isSimultaneous(BitSet set) {
    BitSet used = new BitSet(linkNames.length);
    for (int t = set.nextSetBit(0); t >= 0; t = set.nextSetBit(t + 1)) {
      for (int l : links[t]) {
        if (used.get(l)) {
          return false;
        }
        used.set(l);
      }
    }
    return true;
  }

  /**
   * @return true if the given transfers are simultaneous and use every bottleneck of this traffic
   */
  public boolean isTeam(BitSet set) {
    if (!isSimultaneous(set)) {
      return false;
    }
    BitSet used = usedLinks(set);
    for (int b : bottlenecks()) {
      if (!used.get(b)) {
        return false;
      }
    }
    return true;
  }

  /**
   * @return true if the given transfers are simultaneous and every other transfer of this traffic
   *     shares a link with one of them (a full simultaneous subset, sec. 3.2)
   */
  public boolean isFull(BitSet set) {
    if (!isSimultaneous(set)) {
      return false;
    }
    BitSet used = usedLinks(set);
    for (int t = 0; t < links.length; t++) {
      if (set.get(t)) {
        continue;
      }
      boolean blocked = false;
      for (int l : links[t]) {
        blocked |= used.get(l);
      }
      if (!blocked) {
        return false;
      }
    }
    return true;
  }

  private BitSet usedLinks(BitSet set) {
    BitSet used = new BitSet(linkNames.length);
    for (int t = set.nextSetBit(0); t >= 0; t = set.nextSetBit(t + 1)) {
      for (int l : links[t]) {
        used.set(l);
      }
    }
    return used;
  }

  /**
   * @param subset transfers to keep
   * @return the sub-traffic of those transfers (same link ids and names, transfers renumbered in
   *     ascending order of their old ids)
   * @throws IllegalArgumentException if the subset is empty
   */
  public Traffic subTraffic(BitSet subset) {
    if (subset.isEmpty()) {
      throw new IllegalArgumentException("sub-traffic is empty");
    }
    int n = subset.cardinality();
    String[] nn = new String[n];
    int[][] ll = new int[n][];
    int x = 0;
    for (int t = subset.nextSetBit(0); t >= 0; t = subset.nextSetBit(t + 1)) {
      nn[x] = names[t];
      ll[x++] = links[t];
    }
    return new Traffic(nn, linkNames, ll);
  }

  @Override
  public String toString() {
    return "Traffic["
        + size()
        + " transfers, "
        + linkCount()
        + " links, duration "
        + duration()
        + "]";
  }
}
