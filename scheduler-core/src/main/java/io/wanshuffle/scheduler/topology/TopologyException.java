package io.wanshuffle.scheduler.topology;

/**
 * Bad topology input: a malformed line in the topology configuration or in the host mapping table,
 * a host the mapping does not know, a link without a capacity. The message names the file and,
 * where there is one, the line ({@code file:line: problem}).
 */
public final class TopologyException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** @param message the problem, starting with the file (and line) it comes from */
  public TopologyException(String message) {
    super(message);
  }

  /**
   * @param message the problem, starting with the file (and line) it comes from
   * @param cause the underlying error (an I/O error, a failed mapping script)
   */
  public TopologyException(String message, Throwable cause) {
    super(message, cause);
  }
}
