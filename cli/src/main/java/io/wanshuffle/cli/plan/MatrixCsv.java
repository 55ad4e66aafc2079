package io.wanshuffle.cli.plan;

import io.wanshuffle.cli.DecimalNumber;
import io.wanshuffle.cli.InputException;
import io.wanshuffle.scheduler.TrafficMatrix;
import io.wanshuffle.scheduler.io.TextFile;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads the traffic matrix CSV of {@code ./wan-shuffle plan --matrix}.
 *
 * <p>Format: one line per sender (row), one comma-separated cell per receiver (column), each a
 * non-negative decimal number ({@code 12}, {@code 0.5}, {@code 1e9}); spaces around cells are
 * allowed. Lines starting with {@code #} and blank lines are ignored, except the header: if the
 * first line is {@code #senders: h1,h2,...}, the second line must be {@code #receivers: h1,h2,...};
 * they name the hosts of the rows and columns (one distinct name per row / column).
 *
 * <p>Every fault raises {@link InputException} naming the file, the 1-based line and the 1-based
 * column (cell number): ragged rows, empty cells, negative, NaN, infinite or non-numeric cells, an
 * empty matrix, header name counts that do not match.
 */
public final class MatrixCsv {
  private static final String SENDERS = "#senders:";
  private static final String RECEIVERS = "#receivers:";

  private MatrixCsv() {}

  /**
   * @param file the CSV file
   * @return its matrix and host names
   * @throws InputException if the file is missing or unreadable (naming it) or malformed (naming
   *     file, line and column)
   */
  public static MatrixFile read(Path file) {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return read(in, file.toString());
    } catch (NoSuchFileException e) {
      throw new InputException(file + ": no such file");
    } catch (IOException e) {
      throw new InputException(file + ": cannot read: " + TextFile.reason(file, e));
    }
  }

  /**
   * @return true for a comment that is a misplaced or misspelt header ({@code # Senders :} too)
   */
  private static boolean looksLikeHeader(String stripped) {
    if (!stripped.startsWith("#") || stripped.indexOf(':') < 0) {
      return false;
    }
    String word =
        stripped.substring(1, stripped.indexOf(':')).strip().toLowerCase(java.util.Locale.ROOT);
    return word.equals("senders") || word.equals("receivers");
  }

  /**
   * @param in CSV text
   * @param name the file name used in error messages
   * @return the matrix and host names
   * @throws InputException if malformed (naming file, line and column)
   * @throws IOException if reading fails
   */
  public static MatrixFile read(Reader in, String name) throws IOException {
    BufferedReader br = in instanceof BufferedReader b ? b : new BufferedReader(in);
    List<String> senders = List.of();
    List<String> receivers = List.of();
    int sendersLine = 0;
    int receiversLine = 0;
    List<double[]> rows = new ArrayList<>();
    int firstRowLine = 0;
    int lineNo = 0;
    String line;
    while ((line = br.readLine()) != null) {
      lineNo++;
      if (lineNo == 1 && line.startsWith(TextFile.BYTE_ORDER_MARK)) {
        line = line.substring(TextFile.BYTE_ORDER_MARK.length());
      }
      String t = line.strip();
      if (lineNo == 1 && t.startsWith(SENDERS)) {
        senders = names(t.substring(SENDERS.length()), name, lineNo, SENDERS);
        sendersLine = lineNo;
        continue;
      }
      if (lineNo == 2 && sendersLine == 1) {
        if (!t.startsWith(RECEIVERS)) {
          throw InputException.at(
              name,
              lineNo,
              "line 1 is a #senders: header, so this line must be '#receivers: h1,h2,...'");
        }
        receivers = names(t.substring(RECEIVERS.length()), name, lineNo, RECEIVERS);
        receiversLine = lineNo;
        continue;
      }
      if (looksLikeHeader(t)) {
        throw InputException.at(
            name,
            lineNo,
            "host names go on line 1 ('#senders: h1,h2,...') and line 2"
                + " ('#receivers: h1,h2,...'), exactly so; here '"
                + t.substring(0, t.indexOf(':') + 1)
                + "' would be read as a comment");
      }
      if (t.isEmpty() || t.startsWith("#")) {
        continue;
      }
      double[] row = cells(line, name, lineNo);
      if (rows.isEmpty()) {
        firstRowLine = lineNo;
      } else if (row.length != rows.get(0).length) {
        throw InputException.at(
            name,
            lineNo,
            Math.min(row.length, rows.get(0).length) + 1,
            "ragged row: "
                + row.length
                + " columns, but line "
                + firstRowLine
                + " has "
                + rows.get(0).length);
      }
      rows.add(row);
    }
    if (sendersLine == 1 && receiversLine == 0) {
      throw InputException.at(
          name, 2, "line 1 is a #senders: header, so line 2 must be '#receivers: h1,h2,...'");
    }
    if (rows.isEmpty()) {
      throw new InputException(
          name + ": empty matrix: no data rows (only comments or blank lines)");
    }
    if (!senders.isEmpty() && senders.size() != rows.size()) {
      throw InputException.at(
          name,
          sendersLine,
          "#senders: names "
              + senders.size()
              + " hosts, but the matrix has "
              + rows.size()
              + " rows");
    }
    int cols = rows.get(0).length;
    if (!receivers.isEmpty() && receivers.size() != cols) {
      throw InputException.at(
          name,
          receiversLine,
          "#receivers: names "
              + receivers.size()
              + " hosts, but the matrix has "
              + cols
              + " columns");
    }
    double[] flat = new double[rows.size() * cols];
    for (int i = 0; i < rows.size(); i++) {
      System.arraycopy(rows.get(i), 0, flat, i * cols, cols);
    }
    try {
      return new MatrixFile(TrafficMatrix.ofRowMajor(rows.size(), cols, flat), senders, receivers);
    } catch (IllegalArgumentException e) {
      throw new InputException(
          name + ": " + e.getMessage()); // cells are checked above: the total overflows
    }
  }

  private static double[] cells(String line, String name, int lineNo) {
    String[] parts = line.split(",", -1);
    double[] row = new double[parts.length];
    for (int c = 0; c < parts.length; c++) {
      String cell = parts[c].strip();
      if (cell.isEmpty()) {
        throw InputException.at(name, lineNo, c + 1, "empty cell");
      }
      if (!DecimalNumber.isDecimal(cell)) {
        String what =
            cell.equalsIgnoreCase("nan") || cell.toLowerCase().contains("inf")
                ? "is not a finite number"
                : "is not a number";
        throw InputException.at(name, lineNo, c + 1, "'" + cell + "' " + what);
      }
      double v = Double.parseDouble(cell);
      if (Double.isInfinite(v)) {
        throw InputException.at(name, lineNo, c + 1, "'" + cell + "' is too large");
      }
      boolean nonZero = DecimalNumber.isNonZero(cell);
      if (nonZero && cell.startsWith("-")) {
        throw InputException.at(name, lineNo, c + 1, "'" + cell + "' is negative");
      }
      if (v == 0 && nonZero) {
        throw InputException.at(
            name,
            lineNo,
            c + 1,
            "'"
                + cell
                + "' is too small (below the smallest"
                + " double, it would become 0: no transfer)");
      }
      if (v < 0) {
        throw InputException.at(name, lineNo, c + 1, "'" + cell + "' is negative");
      }
      row[c] = v == 0 ? 0 : v; // -0 becomes 0
    }
    return row;
  }

  private static List<String> names(String list, String name, int lineNo, String header) {
    String[] parts = list.split(",", -1);
    List<String> out = new ArrayList<>(parts.length);
    Set<String> seen = new HashSet<>();
    for (int c = 0; c < parts.length; c++) {
      String h = parts[c].strip();
      if (h.isEmpty()) {
        throw InputException.at(name, lineNo, c + 1, header + " host name is empty");
      }
      if (!seen.add(h)) {
        throw InputException.at(name, lineNo, c + 1, header + " host '" + h + "' appears twice");
      }
      out.add(h);
    }
    return out;
  }
}
