package io.wanshuffle.scheduler.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Line-by-line reader of the Coflow-Benchmark format; see {@link CoflowTrace}. */
final class CoflowTraceParser {
  private final String source;
  private int lineNo;
  private String[] fields;

  CoflowTraceParser(String source) {
    this.source = source;
  }

  CoflowTrace parse(BufferedReader in) throws IOException {
    String line = nextLine(in);
    if (line == null) {
      throw new TraceFormatException(
          source, Math.max(lineNo, 1), "empty trace: expected '<ports> <number of coflows>'");
    }
    fields = line.trim().split("\\s+");
    if (fields.length != 2) {
      throw fault("expected 2 fields '<ports> <number of coflows>', found " + fields.length);
    }
    int racks = intField(0, "ports", 1, Integer.MAX_VALUE);
    int count = intField(1, "number of coflows", 0, Integer.MAX_VALUE);
    int headerLine = lineNo;
    List<Coflow> coflows = new ArrayList<>(Math.min(count, 1 << 16));
    while ((line = nextLine(in)) != null) {
      fields = line.trim().split("\\s+");
      if (coflows.size() == count) {
        throw fault("line 1 announces " + count + " coflows, but there are more lines");
      }
      coflows.add(coflow(racks));
    }
    if (coflows.size() != count) {
      throw new TraceFormatException(
          source,
          headerLine,
          "announces " + count + " coflows, but the file has " + coflows.size());
    }
    return new CoflowTrace(racks, coflows);
  }

  /**
   * @return the next non-blank line, or null at the end; counts lines
   */
  private String nextLine(BufferedReader in) throws IOException {
    String line;
    while ((line = in.readLine()) != null) {
      lineNo++;
      if (!line.isBlank()) {
        return line;
      }
    }
    return null;
  }

  private Coflow coflow(int racks) {
    if (fields.length < 5) {
      throw fault(
          "expected at least 5 fields '<id> <arrival ms> <mappers> <rack>... <reducers>"
              + " <rack:MB>...', found "
              + fields.length);
    }
    long id = longField(0, "coflow ID", Long.MIN_VALUE);
    long arrival = longField(1, "arrival time (ms)", 0);
    int mappers = intField(2, "number of mappers", 1, fields.length);
    int reducerCountField = 3 + mappers;
    if (reducerCountField >= fields.length) {
      throw fault(
          "announces "
              + mappers
              + " mappers but has only "
              + (fields.length - 3)
              + " fields after the count (need the mapper racks and the reducer count)");
    }
    int[] mapperRacks = new int[mappers];
    for (int m = 0; m < mappers; m++) {
      mapperRacks[m] = intField(3 + m, "mapper rack", 0, racks - 1);
    }
    int reducers = intField(reducerCountField, "number of reducers", 1, Integer.MAX_VALUE);
    int first = reducerCountField + 1;
    if (fields.length - first != reducers) {
      throw fault(
          "announces "
              + reducers
              + " reducers (field "
              + (reducerCountField + 1)
              + ") but has "
              + (fields.length - first)
              + " 'rack:MB' fields");
    }
    int[] reducerRacks = new int[reducers];
    double[] megabytes = new double[reducers];
    for (int r = 0; r < reducers; r++) {
      int f = first + r;
      String s = fields[f];
      int colon = s.indexOf(':');
      if (colon < 0) {
        throw fault(f, "reducer", "'" + s + "' is not of the form rack:MB");
      }
      reducerRacks[r] = parseInt(s.substring(0, colon), f, "reducer rack", 0, racks - 1);
      megabytes[r] = parseMegabytes(s.substring(colon + 1), f);
    }
    return new Coflow(id, arrival, mapperRacks, reducerRacks, megabytes);
  }

  private int intField(int f, String what, int min, int max) {
    return parseInt(fields[f], f, what, min, max);
  }

  private int parseInt(String s, int f, String what, int min, int max) {
    int v;
    try {
      v = Integer.parseInt(s);
    } catch (NumberFormatException e) {
      throw fault(f, what, "'" + s + "' is not an integer");
    }
    if (v < min || v > max) {
      String range = max == Integer.MAX_VALUE ? "at least " + min : "in " + min + ".." + max;
      throw fault(f, what, "'" + s + "' is not " + range);
    }
    return v;
  }

  private long longField(int f, String what, long min) {
    long v;
    try {
      v = Long.parseLong(fields[f]);
    } catch (NumberFormatException e) {
      throw fault(f, what, "'" + fields[f] + "' is not an integer");
    }
    if (v < min) {
      throw fault(f, what, "'" + fields[f] + "' is not at least " + min);
    }
    return v;
  }

  private double parseMegabytes(String s, int f) {
    double v;
    try {
      v = Double.parseDouble(s);
    } catch (NumberFormatException e) {
      throw fault(f, "reducer MB", "'" + s + "' is not a number");
    }
    if (!(v >= 0) || Double.isInfinite(v)) {
      throw fault(f, "reducer MB", "'" + s + "' is not a finite number >= 0");
    }
    return v;
  }

  private TraceFormatException fault(String detail) {
    return new TraceFormatException(source, lineNo, detail);
  }

  private TraceFormatException fault(int zeroBasedField, String what, String detail) {
    return new TraceFormatException(
        source, lineNo, "field " + (zeroBasedField + 1) + " (" + what + "): " + detail);
  }
}
