package io.wanshuffle.spark.coordinator.matrix;

import io.wanshuffle.scheduler.Platform;
import io.wanshuffle.spark.coordinator.demand.Demand;
import io.wanshuffle.spark.coordinator.network.FlowLeases;
import io.wanshuffle.spark.coordinator.network.HostIndex;
import io.wanshuffle.spark.topology.LinkModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * The residual demand read under the coordinator's lock, before it becomes a matrix: the demands
 * that take part and a copy of their future bytes, the hosts in order of first appearance, and, for
 * a plan on the free ports only ({@link ResidualScope#planFitsFreePorts}), the platform of the free
 * capacity at that instant. Reading it costs O(demands x source hosts); building the matrix from it
 * ({@link DemandMatrix#of}) needs no lock.
 *
 * @param demands the demands in the matrix, in registration order
 * @param futures per demand, its bytes still to grant per source host (a copy)
 * @param senders sending hosts, by row
 * @param receivers receiving hosts, by column
 * @param freePlatform the platform of the free capacity (barrier steps), else null
 * @param readUpTo the largest demand id read (0 when none)
 * @param unplanned the ids of the demands read but not in the matrix, in registration order
 * @param columns per demand, its receiver's column
 * @param rows per demand and source host, the sender's row (-1 where its future is 0)
 * @param routes per demand and source host, the link ids of its route (null where its future is 0),
 *     read from the demand under the lock so that building the matrix looks up no route
 */
public record ResidualSnapshot(
    List<Demand> demands,
    List<long[]> futures,
    String[] senders,
    String[] receivers,
    Platform freePlatform,
    long readUpTo,
    long[] unplanned,
    int[] columns,
    List<int[]> rows,
    List<int[][]> routes) {

  /**
   * Reads the residual demand that can be planned now (under the coordinator's lock).
   *
   * @param book the registered demands, in registration order
   * @param leases the open flows and the k and δ limits
   * @param mode barrier or pipelined steps: which demands, sources and ports take part
   * @param betaSeconds β, setup delay of a step, seconds
   * @return the snapshot, or null when no demand could start a flow now (nothing to plan)
   */
  public static ResidualSnapshot read(
      Collection<Demand> book, FlowLeases leases, ResidualScope mode, double betaSeconds) {
    if (!anyStartable(book, leases, mode)) {
      return null;
    }
    List<Demand> eligible = new ArrayList<>();
    List<long[]> futures = new ArrayList<>();
    List<int[]> rows = new ArrayList<>();
    List<int[][]> routes = new ArrayList<>();
    int[] columns = new int[16];
    HostIndex index = leases.hosts();
    // row and column by host id, -1 when none yet; hosts by row and column
    int[] rowOf = new int[0];
    int[] colOf = new int[0];
    List<String> senders = new ArrayList<>();
    List<String> receivers = new ArrayList<>();
    long readUpTo = 0;
    long[] unplanned = new long[8];
    int unplannedCount = 0;
    for (Demand d : book) {
      readUpTo = Math.max(readUpTo, d.id());
      long[] future = null;
      int[] row = null;
      int[][] route = null;
      if (d.plannable() && mode.admits(d, leases)) {
        int[] ids = d.hostIds(index);
        if (rowOf.length < index.size()) {
          rowOf = grown(rowOf, index.size());
          colOf = grown(colOf, index.size());
        }
        future = d.futureBytes();
        for (int i = 0; i < d.src().length; i++) {
          if (future[i] > 0 && mode.admitsSource(d.src()[i], leases)) {
            if (row == null) {
              row = new int[d.src().length];
              Arrays.fill(row, -1);
              route = new int[d.src().length][];
            }
            route[i] = d.route(i, leases.links());
            int id = ids[i];
            if (rowOf[id] < 0) {
              rowOf[id] = senders.size();
              senders.add(d.src()[i]);
            }
            row[i] = rowOf[id];
          } else {
            future[i] = 0; // not planned now
          }
        }
        if (row != null) {
          int dstId = ids[d.src().length];
          if (colOf[dstId] < 0) {
            colOf[dstId] = receivers.size();
            receivers.add(d.dst());
          }
          if (eligible.size() == columns.length) {
            columns = Arrays.copyOf(columns, 2 * columns.length);
          }
          columns[eligible.size()] = colOf[dstId];
          eligible.add(d);
          futures.add(future);
          rows.add(row);
          routes.add(route);
        }
      }
      if (row == null) {
        if (unplannedCount == unplanned.length) {
          unplanned = Arrays.copyOf(unplanned, 2 * unplannedCount);
        }
        unplanned[unplannedCount++] = d.id();
      }
    }
    if (eligible.isEmpty()) {
      return null;
    }
    String[] s = senders.toArray(new String[0]);
    String[] r = receivers.toArray(new String[0]);
    Platform free =
        mode.planFitsFreePorts() ? mode.platform(s, r, leases.k(), leases, betaSeconds) : null;
    return new ResidualSnapshot(
        eligible,
        futures,
        s,
        r,
        free,
        readUpTo,
        Arrays.copyOf(unplanned, unplannedCount),
        Arrays.copyOf(columns, eligible.size()),
        rows,
        routes);
  }

  /**
   * Whether some demand could start a flow now: one that takes part, holds no grant and has bytes
   * from a source admitted now whose flow fits the free leases. Allocates nothing, so that the
   * rounds that find every port busy (most of those a flow's end requests, once the standing plan
   * has refilled its ports) cost one pass of look-ups under the lock.
   */
  private static boolean anyStartable(
      Collection<Demand> book, FlowLeases leases, ResidualScope mode) {
    LinkModel links = leases.links();
    for (Demand d : book) {
      // the receiver's port and the links every route to it crosses first: once the backbone's
      // side into the receiver's cluster is full, one look-up rules out all of the demand's sources
      if (d.grantable()
          && mode.admits(d, leases)
          && leases.freeReceive(d.dst()) > 0
          && leases.allFree(d.sharedLinks(links))) {
        for (int i = 0; i < d.src().length; i++) {
          if (d.remaining(i) > 0
              && mode.admitsSource(d.src()[i], leases)
              && leases.fits(d.src()[i], d.dst(), d.route(i, links))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static int[] grown(int[] a, int size) {
    int[] g = Arrays.copyOf(a, Math.max(size, 2 * a.length));
    Arrays.fill(g, a.length, g.length, -1);
    return g;
  }
}
