package io.wanshuffle.scheduler.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A Coflow-Benchmark trace: the number of racks ("ports in the fabric") and its coflows in file
 * order. Format (coflow-benchmark README):
 *
 * <pre>
 * Line 1: &lt;ports&gt; &lt;number of coflows&gt;
 * Line i: &lt;coflow ID&gt; &lt;arrival ms&gt; &lt;mappers M&gt; &lt;rack of mapper 1&gt; ... &lt;rack of mapper M&gt;
 *         &lt;reducers R&gt; &lt;rack:MB of reducer 1&gt; ... &lt;rack:MB of reducer R&gt;
 * </pre>
 *
 * Fields are separated by whitespace. Racks are 0-based and below the port count. Blank lines are
 * skipped.
 *
 * @param racks number of racks (ports) of the fabric, at least 1
 * @param coflows the coflows in file order
 */
public record CoflowTrace(int racks, List<Coflow> coflows) {
  /** Copies the list. */
  public CoflowTrace {
    coflows = List.copyOf(coflows);
  }

  /**
   * Reads a trace file (UTF-8).
   *
   * @param file the trace, e.g. {@code FB2010-1Hr-150-0.txt}
   * @return the parsed trace
   * @throws TraceFormatException if the text does not follow the format; the message names the
   *     file, the 1-based line and the 1-based field
   * @throws IOException if the file cannot be read
   */
  public static CoflowTrace parse(Path file) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return parse(in, file.toString());
    }
  }

  /**
   * Reads a trace from a reader.
   *
   * @param in the trace text
   * @param source name of the input used in error messages (a file name)
   * @return the parsed trace
   * @throws TraceFormatException if the text does not follow the format (message names source,
   *     1-based line and field)
   * @throws IOException if reading fails
   */
  public static CoflowTrace parse(Reader in, String source) throws IOException {
    BufferedReader br = in instanceof BufferedReader b ? b : new BufferedReader(in);
    return new CoflowTraceParser(source).parse(br);
  }
}
