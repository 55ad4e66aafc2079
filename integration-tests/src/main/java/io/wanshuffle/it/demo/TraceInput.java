package io.wanshuffle.it.demo;

import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.workload.Coflow;
import io.wanshuffle.scheduler.workload.CoflowTrace;
import io.wanshuffle.scheduler.workload.CrossClusterShuffle;
import io.wanshuffle.scheduler.workload.FacebookTrace;
import io.wanshuffle.scheduler.workload.TwoClusterSplit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * A shuffle of the Facebook coflow trace replayed on the testbed: the trace's racks are split into
 * two clusters ({@link TwoClusterSplit#halves}), the A-to-B part of a coflow is taken ({@link
 * CrossClusterShuffle}), its sender racks are folded onto the testbed's A hosts (row i onto host
 * {@code i mod nA}) and its receiver racks onto the B hosts the same way, and the bytes are scaled
 * to the wanted total, keeping the shape.
 *
 * @param name short name ({@code coflow <id>})
 * @param bytes {@code [nA][nB]} bytes
 * @param description how it was made, for reports: one phrase without a final period ({@code coflow
 *     406 of FILE (...), racks folded onto 3 x 3 hosts, scaled to 120 MB})
 */
public record TraceInput(String name, double[][] bytes, String description) {
  /** File name of the Facebook trace. */
  public static final String FILE = FacebookTrace.FILE;

  /** System property naming the trace file. */
  public static final String PROPERTY = FacebookTrace.PROPERTY;

  /**
   * @return how the replay input was made
   */
  public String describe() {
    return description;
  }

  /**
   * Finds the trace: the given file or folder, else the copy the repository ships ({@link
   * FacebookTrace#locate}: system property {@value #PROPERTY}, else {@code data/coflow-benchmark/}
   * of the wan-shuffle folder, the working folder or a parent).
   *
   * @param given a file or folder, or null
   * @return the trace file, if found
   */
  public static Optional<Path> locate(Path given) {
    if (given != null) {
      Path p = Files.isDirectory(given) ? given.resolve(FILE) : given;
      return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
    }
    return FacebookTrace.locate();
  }

  /**
   * The coflow with the most A-to-B bytes among those with at least {@code nA} sender and {@code
   * nB} receiver racks (so every testbed host takes part), folded and scaled.
   *
   * @param traceFile the trace
   * @param nA testbed hosts in cluster A
   * @param nB testbed hosts in cluster B
   * @param totalBytes total bytes of the replay
   * @return the replay input
   * @throws IllegalArgumentException if no coflow is large enough
   * @throws UncheckedIOException if the file cannot be read (format errors name file, line and
   *     field)
   */
  public static TraceInput largestShuffle(Path traceFile, int nA, int nB, double totalBytes) {
    CoflowTrace trace = read(traceFile);
    TwoClusterSplit split = TwoClusterSplit.halves(trace.racks());
    CrossClusterShuffle best = null;
    double bestTotal = 0;
    for (Coflow c : trace.coflows()) {
      Optional<CrossClusterShuffle> s = split.crossCluster(c, TwoClusterSplit.Direction.A_TO_B);
      if (s.isEmpty() || s.get().senderRacks().length < nA || s.get().receiverRacks().length < nB) {
        continue;
      }
      double t = s.get().bytes().total();
      if (t > bestTotal) {
        bestTotal = t;
        best = s.get();
      }
    }
    if (best == null) {
      throw new IllegalArgumentException(
          traceFile
              + ": no coflow has "
              + nA
              + " sender and "
              + nB
              + " receiver racks across the split");
    }
    return fold(traceFile, trace.racks(), best, nA, nB, totalBytes);
  }

  /**
   * One given coflow's A-to-B part, folded and scaled like {@link #largestShuffle}. A coflow with
   * fewer sender (receiver) racks than {@code nA} ({@code nB}) leaves the remaining hosts with
   * nothing to send (receive).
   *
   * @param traceFile the trace
   * @param coflowId the coflow's id (first field of its line in the trace)
   * @param nA testbed hosts in cluster A, at least 1
   * @param nB testbed hosts in cluster B, at least 1
   * @param totalBytes total bytes of the replay
   * @return the replay input
   * @throws IllegalArgumentException if the trace has no coflow with that id, or the coflow sends
   *     nothing from the A half of the racks to the B half
   * @throws UncheckedIOException if the file cannot be read (format errors name file, line and
   *     field)
   */
  public static TraceInput coflow(
      Path traceFile, long coflowId, int nA, int nB, double totalBytes) {
    CoflowTrace trace = read(traceFile);
    Coflow c =
        trace.coflows().stream()
            .filter(x -> x.id() == coflowId)
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        traceFile + ": no coflow " + coflowId + " in the trace"));
    TwoClusterSplit split = TwoClusterSplit.halves(trace.racks());
    CrossClusterShuffle s =
        split
            .crossCluster(c, TwoClusterSplit.Direction.A_TO_B)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        traceFile
                            + ": coflow "
                            + coflowId
                            + " sends nothing from the A half"
                            + " of the racks (0.."
                            + (split.firstRackOfB() - 1)
                            + ") to the B half; pick another coflow"));
    return fold(traceFile, trace.racks(), s, nA, nB, totalBytes);
  }

  private static CoflowTrace read(Path traceFile) {
    try {
      return CoflowTrace.parse(traceFile);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the coflow trace " + traceFile, e);
    }
  }

  /**
   * Folds sender rack i onto A host {@code i mod nA}, receiver rack j onto B host {@code j mod nB},
   * and scales.
   */
  private static TraceInput fold(
      Path traceFile, int racks, CrossClusterShuffle s, int nA, int nB, double totalBytes) {
    if (nA < 1 || nB < 1) {
      throw new IllegalArgumentException(
          "need at least one host per cluster, got " + nA + " + " + nB);
    }
    TrafficMatrix m = s.bytes();
    double traceTotal = m.total();
    double[][] folded = new double[nA][nB];
    for (int i = 0; i < m.rows(); i++) {
      for (int j = 0; j < m.cols(); j++) {
        folded[i % nA][j % nB] += m.amount(i, j);
      }
    }
    double f = totalBytes / traceTotal;
    for (double[] row : folded) {
      for (int j = 0; j < row.length; j++) {
        row[j] *= f;
      }
    }
    String d =
        String.format(
            Locale.ROOT,
            "coflow %d of %s (A-to-B part after splitting the %d racks in"
                + " halves: %d sender x %d receiver racks, %.0f MB in the trace), racks folded onto %d x %d hosts, scaled"
                + " to %.0f MB",
            s.coflowId(),
            traceFile.getFileName(),
            racks,
            m.rows(),
            m.cols(),
            traceTotal / 1e6,
            nA,
            nB,
            totalBytes / 1e6);
    return new TraceInput("coflow " + s.coflowId(), folded, d);
  }
}
