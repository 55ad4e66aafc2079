package io.wanshuffle.scheduler.topology;

import io.wanshuffle.scheduler.io.TextFile;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Bad topology input: a malformed line in the topology configuration or in the host mapping table,
 * a host the mapping does not know, a link without a capacity. The message names the file and,
 * where there is one, the line ({@code file:line: problem}).
 */
public final class TopologyException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** The Hadoop configuration key at fault, or null. */
  private final String configKey;

  /**
   * @param message the problem, starting with the file (and line) it comes from
   */
  public TopologyException(String message) {
    super(message);
    this.configKey = null;
  }

  /**
   * @param configKey the Hadoop configuration key whose value is at fault (e.g. {@code
   *     net.topology.table.file.name})
   * @param message the problem, starting with the file (and line) it comes from
   */
  public TopologyException(String configKey, String message) {
    super(message);
    this.configKey = configKey;
  }

  /**
   * @return the Hadoop configuration key whose value is at fault, or null when the problem is not
   *     tied to one key (see {@link HostMapping#fromHadoopConfiguration})
   */
  public String configKey() {
    return configKey;
  }

  /**
   * A file that cannot be read, with the reason in words instead of an exception class name.
   *
   * @param file the file
   * @param what what the file is, e.g. {@code topology table}
   * @param e the I/O error
   * @return {@code file: cannot read WHAT: REASON} (no such file, permission denied, not UTF-8
   *     text, is a directory, or the error's own message)
   */
  static TopologyException unreadable(Path file, String what, IOException e) {
    return new TopologyException(
        file + ": cannot read " + what + ": " + TextFile.reason(file, e), e);
  }

  /**
   * @param message the problem, starting with the file (and line) it comes from
   * @param cause the underlying error (an I/O error, a failed mapping script)
   */
  public TopologyException(String message, Throwable cause) {
    super(message, cause);
    this.configKey = null;
  }
}
