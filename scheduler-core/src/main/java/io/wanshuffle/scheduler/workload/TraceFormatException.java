package io.wanshuffle.scheduler.workload;

/**
 * A coflow trace that does not follow the Coflow-Benchmark format. The message names the source
 * (file name), the 1-based line and, where it applies, the 1-based whitespace-separated field, e.g.
 * {@code FB2010-1Hr-150-0.txt: line 7, field 5 (mapper rack): '151' is not a rack in 0..149}.
 */
public final class TraceFormatException extends IllegalArgumentException {
  private final String source;
  private final int line;

  /**
   * @param source the file name or other name of the input
   * @param line 1-based line number of the fault
   * @param detail what is wrong (field and value)
   */
  TraceFormatException(String source, int line, String detail) {
    super(source + ": line " + line + ": " + detail);
    this.source = source;
    this.line = line;
  }

  /**
   * @return the name of the input the fault is in
   */
  public String source() {
    return source;
  }

  /**
   * @return the 1-based line number of the fault
   */
  public int line() {
    return line;
  }
}
