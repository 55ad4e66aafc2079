package io.wanshuffle.scheduler.workload;

import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.ArrayList;
import java.util.List;

/**
 * The cross-cluster part of one coflow as a KPBS instance: the sender racks (rows), the receiver
 * racks (columns) and the bytes each sender rack sends to each receiver rack across the backbone.
 *
 * @param coflowId the coflow's ID in the trace
 * @param senderRacks rack of each row, ascending
 * @param receiverRacks rack of each column, ascending
 * @param bytes senderRacks.length x receiverRacks.length matrix of amounts in <b>bytes</b>
 */
public record CrossClusterShuffle(
    long coflowId, int[] senderRacks, int[] receiverRacks, TrafficMatrix bytes) {

  /** Copies the arrays; checks they match the matrix shape. */
  public CrossClusterShuffle {
    if (senderRacks.length != bytes.rows() || receiverRacks.length != bytes.cols()) {
      throw new IllegalArgumentException(
          "rack lists "
              + senderRacks.length
              + " x "
              + receiverRacks.length
              + " do not match the "
              + bytes.rows()
              + " x "
              + bytes.cols()
              + " matrix");
    }
    senderRacks = senderRacks.clone();
    receiverRacks = receiverRacks.clone();
  }

  /**
   * @return a copy of the sender racks (row i is rack {@code senderRacks()[i]})
   */
  @Override
  public int[] senderRacks() {
    return senderRacks.clone();
  }

  /**
   * @return a copy of the receiver racks (column j is rack {@code receiverRacks()[j]})
   */
  @Override
  public int[] receiverRacks() {
    return receiverRacks.clone();
  }

  /**
   * @param bytesPerSecond rate of one flow at base speed (bytes/s), finite and &gt; 0
   * @return the matrix in seconds at that rate (bytes / rate), as the schedulers take it
   * @throws IllegalArgumentException if the rate is not finite and positive
   */
  public TrafficMatrix seconds(double bytesPerSecond) {
    if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
      throw new IllegalArgumentException(
          "rate must be finite and > 0 bytes/s, got " + bytesPerSecond);
    }
    return bytes.inSecondsAt(bytesPerSecond);
  }

  /**
   * @return host names of the rows, {@code rack-<n>}, as a matrix CSV header names them
   */
  public List<String> senderNames() {
    return names(senderRacks);
  }

  /**
   * @return host names of the columns, {@code rack-<n>}
   */
  public List<String> receiverNames() {
    return names(receiverRacks);
  }

  private static List<String> names(int[] racks) {
    List<String> l = new ArrayList<>(racks.length);
    for (int r : racks) {
      l.add("rack-" + r);
    }
    return List.copyOf(l);
  }
}
