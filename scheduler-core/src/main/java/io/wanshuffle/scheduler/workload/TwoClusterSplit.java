package io.wanshuffle.scheduler.workload;

import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Turns a coflow of the single-fabric trace into the traffic matrix it would put on the backbone if
 * its racks were split between two clusters.
 *
 * <p><b>The conversion</b> (documented in docs/workloads.md):
 *
 * <ol>
 *   <li>Racks {@code 0 .. firstRackOfB-1} form cluster A, racks {@code firstRackOfB .. racks-1}
 *       form cluster B ({@link #halves(int)}: the lower half is A, so racks 0..74 and 75..149 for
 *       the 150-rack Facebook trace).
 *   <li>The trace gives only the megabytes each reducer receives. As Varys and CoflowSim do, each
 *       reducer's bytes are spread <b>evenly over the coflow's mappers</b>: a reducer receiving
 *       {@code MB} megabytes gets {@code MB * 2^20 / M} bytes from each of the M mappers (a rack
 *       listed twice as a mapper sends twice that share).
 *   <li>The cross-cluster part in the direction {@link Direction#A_TO_B} keeps the flows from
 *       mapper racks in A to reducer racks in B ({@link Direction#B_TO_A} the reverse; the two
 *       directions use the two sides of a full-duplex backbone and are independent instances). Rows
 *       are the distinct sender racks, columns the distinct receiver racks, both ascending; flows
 *       between the same pair of racks add up.
 * </ol>
 *
 * Amounts are in bytes; {@link CrossClusterShuffle#seconds(double)} converts them.
 */
public final class TwoClusterSplit {
  /** Bytes in one trace megabyte (CoflowSim reads the trace's MB as 2^20 bytes). */
  public static final double BYTES_PER_MB = 1024.0 * 1024.0;

  /** Which way across the backbone. */
  public enum Direction {
    /** mappers in cluster A send to reducers in cluster B */
    A_TO_B,
    /** mappers in cluster B send to reducers in cluster A */
    B_TO_A
  }

  private final int racks;
  private final int firstRackOfB;

  /**
   * @param racks number of racks of the trace, at least 2
   * @param firstRackOfB the lowest rack of cluster B, in 1..racks-1; lower racks are cluster A
   * @throws IllegalArgumentException if either cluster would be empty
   */
  public TwoClusterSplit(int racks, int firstRackOfB) {
    if (racks < 2 || firstRackOfB < 1 || firstRackOfB >= racks) {
      throw new IllegalArgumentException(
          "a two-cluster split needs racks >= 2 and the first rack"
              + " of cluster B in 1.."
              + (racks - 1)
              + ", got racks="
              + racks
              + ", firstRackOfB="
              + firstRackOfB);
    }
    this.racks = racks;
    this.firstRackOfB = firstRackOfB;
  }

  /**
   * @param racks number of racks, at least 2
   * @return the split with cluster A = racks {@code 0 .. racks/2 - 1}, cluster B the rest
   */
  public static TwoClusterSplit halves(int racks) {
    return new TwoClusterSplit(racks, racks / 2);
  }

  /**
   * @return the number of racks the split covers
   */
  public int racks() {
    return racks;
  }

  /**
   * @return the lowest rack of cluster B
   */
  public int firstRackOfB() {
    return firstRackOfB;
  }

  /**
   * @param rack a rack in 0..racks-1
   * @return true if the rack is in cluster A
   * @throws IllegalArgumentException if the rack is outside the split
   */
  public boolean inA(int rack) {
    if (rack < 0 || rack >= racks) {
      throw new IllegalArgumentException("rack " + rack + " is outside 0.." + (racks - 1));
    }
    return rack < firstRackOfB;
  }

  /**
   * The cross-cluster traffic of one coflow in one direction.
   *
   * @param coflow a coflow whose racks are below {@link #racks()}
   * @param direction which way across the backbone
   * @return the instance in bytes, or empty when no mapper on the sending side feeds a reducer on
   *     the receiving side with a non-zero amount
   * @throws IllegalArgumentException if a rack of the coflow is outside the split
   */
  public Optional<CrossClusterShuffle> crossCluster(Coflow coflow, Direction direction) {
    boolean fromA = direction == Direction.A_TO_B;
    int[] mappers = coflow.mapperRacks();
    int[] reducers = coflow.reducerRacks();
    double[] mb = coflow.reducerMegabytes();
    for (int m : mappers) {
      inA(m); // range check of every rack, whichever side it is on
    }
    for (int r : reducers) {
      inA(r);
    }
    // sender rack -> (receiver rack -> bytes); sorted maps give ascending rows and columns
    TreeMap<Integer, TreeMap<Integer, Double>> flows = new TreeMap<>();
    TreeMap<Integer, Integer> columns = new TreeMap<>();
    for (int r = 0; r < reducers.length; r++) {
      if (inA(reducers[r]) == fromA || mb[r] <= 0) {
        continue;
      }
      double share = mb[r] * BYTES_PER_MB / mappers.length;
      for (int m : mappers) {
        if (inA(m) != fromA) {
          continue;
        }
        flows.computeIfAbsent(m, x -> new TreeMap<>()).merge(reducers[r], share, Double::sum);
        columns.put(reducers[r], 0);
      }
    }
    if (flows.isEmpty()) {
      return Optional.empty();
    }
    int[] receiverRacks = new int[columns.size()];
    int c = 0;
    for (var e : columns.entrySet()) {
      e.setValue(c);
      receiverRacks[c++] = e.getKey();
    }
    int[] senderRacks = new int[flows.size()];
    double[] rowMajor = new double[senderRacks.length * receiverRacks.length];
    int row = 0;
    for (var e : flows.entrySet()) {
      senderRacks[row] = e.getKey();
      for (var f : e.getValue().entrySet()) {
        rowMajor[row * receiverRacks.length + columns.get(f.getKey())] += f.getValue();
      }
      row++;
    }
    return Optional.of(
        new CrossClusterShuffle(
            coflow.id(),
            senderRacks,
            receiverRacks,
            TrafficMatrix.ofRowMajor(senderRacks.length, receiverRacks.length, rowMajor)));
  }

  @Override
  public String toString() {
    return "TwoClusterSplit[A = racks 0.."
        + (firstRackOfB - 1)
        + ", B = racks "
        + firstRackOfB
        + ".."
        + (racks - 1)
        + "]";
  }
}
