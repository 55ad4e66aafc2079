package io.wanshuffle.spark.capture;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A sender x receiver traffic matrix in bytes with host names: the CSV form that {@code
 * ./wan-shuffle plan --matrix FILE --rate BYTES_PER_S} reads (docs/cli.md, "Matrix file"):
 *
 * <pre>
 * #senders: 127.0.1.1,127.0.1.2
 * #receivers: 127.0.2.1,127.0.2.2
 * # any further comment lines
 * 1048576,0
 * 524288,2097152
 * </pre>
 *
 * @param senders row hosts, distinct
 * @param receivers column hosts, distinct
 * @param bytes {@code bytes[i][j]}: bytes from {@code senders[i]} to {@code receivers[j]}, ≥ 0
 */
public record HostMatrix(List<String> senders, List<String> receivers, long[][] bytes) {

  /** Checks the shape. @throws IllegalArgumentException if rows/columns do not match the names */
  public HostMatrix {
    senders = List.copyOf(senders);
    receivers = List.copyOf(receivers);
    if (bytes.length != senders.size()) {
      throw new IllegalArgumentException(bytes.length + " rows for " + senders.size() + " senders");
    }
    for (long[] row : bytes) {
      if (row.length != receivers.size()) {
        throw new IllegalArgumentException(
            row.length + " columns for " + receivers.size() + " receivers");
      }
    }
  }

  /**
   * Compacts a square host x host matrix to the hosts that send (rows) and receive (columns).
   *
   * @param hosts names of the square matrix's rows and columns
   * @param square {@code [src][dst]} bytes over {@code hosts}
   * @return the compact matrix (0 x 0 if nothing moves)
   */
  public static HostMatrix compact(List<String> hosts, long[][] square) {
    int n = hosts.size();
    List<Integer> rows = new ArrayList<>();
    List<Integer> cols = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long out = 0;
      long in = 0;
      for (int j = 0; j < n; j++) {
        out += square[i][j];
        in += square[j][i];
      }
      if (out > 0) {
        rows.add(i);
      }
      if (in > 0) {
        cols.add(i);
      }
    }
    long[][] m = new long[rows.size()][cols.size()];
    for (int a = 0; a < rows.size(); a++) {
      for (int b = 0; b < cols.size(); b++) {
        m[a][b] = square[rows.get(a)][cols.get(b)];
      }
    }
    return new HostMatrix(
        rows.stream().map(hosts::get).toList(), cols.stream().map(hosts::get).toList(), m);
  }

  /**
   * @return the sum of all cells, bytes
   */
  public long total() {
    return Arrays.stream(bytes).flatMapToLong(Arrays::stream).sum();
  }

  /**
   * Writes the CSV form.
   *
   * @param out destination (not closed)
   * @param comments extra comment lines written after the two header lines (without {@code #})
   * @throws IOException on write errors
   */
  public void writeCsv(Writer out, List<String> comments) throws IOException {
    out.write("#senders: " + String.join(",", senders) + "\n");
    out.write("#receivers: " + String.join(",", receivers) + "\n");
    for (String c : comments) {
      out.write("# " + c.replace('\n', ' ') + "\n");
    }
    for (long[] row : bytes) {
      StringBuilder sb = new StringBuilder();
      for (int j = 0; j < row.length; j++) {
        if (j > 0) {
          sb.append(',');
        }
        sb.append(row[j]);
      }
      out.write(sb.append('\n').toString());
    }
  }

  /**
   * Reads a matrix written by {@link #writeCsv} (host header lines required, integral cells).
   *
   * @param in the CSV text
   * @param name file name used in error messages
   * @return the matrix
   * @throws IOException on read errors
   * @throws IllegalArgumentException naming the file and 1-based line if the text is malformed
   */
  public static HostMatrix readCsv(Reader in, String name) throws IOException {
    BufferedReader r = new BufferedReader(in);
    List<String> senders = null;
    List<String> receivers = null;
    List<long[]> rows = new ArrayList<>();
    String line;
    int no = 0;
    while ((line = r.readLine()) != null) {
      no++;
      String t = line.trim();
      if (no == 1 && t.startsWith("#senders:")) {
        senders = names(t.substring(9));
      } else if (no == 2 && t.startsWith("#receivers:")) {
        receivers = names(t.substring(11));
      } else if (!t.isEmpty() && !t.startsWith("#")) {
        String[] cells = t.split(",", -1);
        long[] row = new long[cells.length];
        for (int j = 0; j < cells.length; j++) {
          try {
            row[j] = Long.parseLong(cells[j].trim());
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                name
                    + ": line "
                    + no
                    + ", column "
                    + (j + 1)
                    + ": not a byte count: '"
                    + cells[j]
                    + "'");
          }
        }
        rows.add(row);
      }
    }
    if (senders == null || receivers == null) {
      throw new IllegalArgumentException(
          name + ": lines 1-2 must be '#senders: ...' and '#receivers: ...'");
    }
    try {
      return new HostMatrix(senders, receivers, rows.toArray(new long[0][]));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
    }
  }

  private static List<String> names(String s) {
    List<String> out = new ArrayList<>();
    for (String p : s.split(",")) {
      if (!p.isBlank()) {
        out.add(p.trim());
      }
    }
    return out;
  }
}
