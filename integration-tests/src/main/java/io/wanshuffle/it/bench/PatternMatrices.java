package io.wanshuffle.it.bench;

import io.wanshuffle.it.demo.TraceInput;
import io.wanshuffle.it.net.TestbedSpec;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The traffic matrix of each {@code e2e-bench} pattern on a testbed, in bytes: {@code uniform},
 * {@code zipf} (exponent 1), {@code fair-poor} (RR-5361 Fig. 3), {@code fair-poor-grid}, {@code
 * both-ways} ({@link Patterns}) and {@code trace} (a coflow of the Facebook trace, {@link
 * TraceInput}); {@code tpch} has none before it runs: its traffic matrix is where the TPC-H join's
 * rows hash ({@link #tpchScale}).
 */
final class PatternMatrices {
  /**
   * The pattern that runs the TPC-H join (lineitem and orders by order key) instead of a matrix.
   */
  static final String TPCH = "tpch";

  /**
   * Joins the patterns of applications that run together ({@code --concurrent}): {@code trace+tpch}
   * runs the trace replay as the first application, the TPC-H join as the second, and so on round
   * the list.
   */
  static final String TOGETHER = "+";

  /**
   * Bytes the TPC-H join shuffles per unit of scale factor: every lineitem and orders row as its
   * {@code |}-separated text and key (scale 0.1: 600,572 lineitem and 150,000 orders rows, about
   * 110 MB).
   */
  private static final double TPCH_BYTES_PER_SCALE = 1.1e9;

  private final double totalBytes;
  private final Path traceDir;
  private final Long coflow;

  /** How the trace pattern's matrix was made, or null before it is built. */
  private String traceDescription;

  /**
   * @param totalBytes bytes of every pattern's matrix
   * @param traceDir the trace file or folder ({@code --trace-dir}), or null for the repository's
   * @param coflow the trace coflow to replay ({@code --coflow}), or null for the largest shuffle
   *     with every host taking part
   */
  PatternMatrices(double totalBytes, Path traceDir, Long coflow) {
    this.totalBytes = totalBytes;
    this.traceDir = traceDir;
    this.coflow = coflow;
  }

  /**
   * @param pattern a pattern's name
   * @param spec the testbed
   * @return {@code [map hosts][B hosts]} bytes ({@code [A + B][A + B]} for {@code both-ways})
   * @throws IllegalArgumentException for an unknown pattern, {@code tpch} (a job, not a matrix:
   *     {@link #tpchScale}), {@code both-ways} on more than two sites, a trace that is not found,
   *     or a coflow that is not in it
   */
  double[][] of(String pattern, TestbedSpec spec) {
    int maps = spec.mapHosts();
    switch (pattern) {
      case "uniform":
        return Patterns.uniform(maps, spec.nodesB(), totalBytes);
      case "zipf":
        return Patterns.zipf(maps, spec.nodesB(), totalBytes, 1.0);
      case "fair-poor":
        return Patterns.fairSharingPoor(maps, spec.nodesB(), totalBytes);
      case "fair-poor-grid":
        return Patterns.fairSharingPoorGrid(
            maps,
            spec.nodesB(),
            totalBytes,
            (int) (spec.backboneBitsPerSecond() / spec.nicBitsPerSecond()));
      case E2eReport.BOTH_WAYS:
        if (spec.sites() != 2) {
          throw new IllegalArgumentException(
              "pattern " + E2eReport.BOTH_WAYS + " needs two sites, got " + spec.sites());
        }
        return Patterns.bothWays(spec.nodesA(), spec.nodesB(), totalBytes);
      case TPCH:
        throw new IllegalArgumentException(
            "pattern "
                + TPCH
                + " has no traffic matrix before it runs (where the join's rows hash decides it):"
                + " run it by its scale, tpchScale()");
      case "trace":
        TraceInput in = trace(maps, spec.nodesB());
        traceDescription = in.describe();
        return in.bytes();
      default:
        throw new IllegalArgumentException(
            "unknown pattern '"
                + pattern
                + "' (uniform, zipf, fair-poor, fair-poor-grid, trace, tpch, "
                + E2eReport.BOTH_WAYS
                + ")");
    }
  }

  /**
   * Every pattern's traffic matrix, built once (the trace pattern reads the trace file), a pattern
   * of applications together ({@value #TOGETHER}) by its parts.
   *
   * @param patterns the patterns as {@code --patterns} names them
   * @param spec the testbed
   * @param apps the applications that run at once ({@code --concurrent})
   * @return each pattern and each part of one to its matrix ({@link #of}), in option order; {@code
   *     tpch} has none (it runs by its scale, {@link #tpchScale})
   * @throws IllegalArgumentException for an unknown pattern or part ({@link #of}), or a pattern of
   *     more parts than applications at once
   */
  Map<String, double[][]> all(List<String> patterns, TestbedSpec spec, int apps) {
    Map<String, double[][]> m = new LinkedHashMap<>();
    for (String pattern : patterns) {
      List<String> parts = parts(pattern);
      if (parts.size() > apps) {
        throw new IllegalArgumentException(
            "'"
                + pattern
                + "' runs "
                + parts.size()
                + " applications together: give --concurrent "
                + parts.size()
                + " or more, got "
                + apps);
      }
      for (String part : parts) {
        if (!m.containsKey(part) && !part.equals(TPCH)) {
          m.put(part, of(part, spec));
        }
      }
    }
    return m;
  }

  /**
   * @param pattern a pattern as {@code --patterns} names it
   * @return its parts: {@code trace+tpch} -> [trace, tpch], {@code zipf} -> [zipf]
   */
  static List<String> parts(String pattern) {
    return List.of(pattern.split(java.util.regex.Pattern.quote(TOGETHER), -1));
  }

  /**
   * @param pattern a pattern as {@code --patterns} names it
   * @param app an application's place among those running together, from 0
   * @return the pattern that application runs: its part round the list ({@code trace+tpch}, app 2
   *     -> trace)
   */
  static String partOf(String pattern, int app) {
    List<String> parts = parts(pattern);
    return parts.get(app % parts.size());
  }

  /**
   * @param pattern a pattern as {@code --patterns} names it
   * @param app an application's place among those running together, from 0
   * @return {@code ": "} and the part it runs for a pattern of several parts ({@code trace+tpch}, 1
   *     -> {@code ": tpch"}), else empty
   */
  static String partLabel(String pattern, int app) {
    return parts(pattern).size() > 1 ? ": " + partOf(pattern, app) : "";
  }

  /**
   * @return the TPC-H scale factor whose join shuffles about the bytes of every pattern's matrix
   */
  double tpchScale() {
    return totalBytes / TPCH_BYTES_PER_SCALE;
  }

  private TraceInput trace(int maps, int receivers) {
    Path f =
        TraceInput.locate(traceDir)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "pattern trace: "
                            + (traceDir != null
                                ? "no trace file at --trace-dir " + traceDir
                                : TraceInput.FILE
                                    + " is not in the repository's data/coflow-benchmark/"
                                    + " (--trace-dir FILE_OR_FOLDER, or -D"
                                    + TraceInput.PROPERTY
                                    + "=FILE)")));
    return coflow == null
        ? TraceInput.largestShuffle(f, maps, receivers, totalBytes)
        : TraceInput.coflow(f, coflow, maps, receivers, totalBytes);
  }

  /**
   * @return how the trace pattern's matrix was made (one phrase for the report), or null when the
   *     trace pattern was not built
   */
  String traceDescription() {
    return traceDescription;
  }
}
