package io.wanshuffle.cli.plan;

import io.wanshuffle.scheduler.TrafficMatrix;
import java.util.List;

/**
 * A traffic matrix read from a CSV file, with the host names of its header lines.
 *
 * @param amounts rows = senders, columns = receivers, in the file's unit (seconds, or bytes when
 *     the user gives {@code --rate})
 * @param senderNames host of each row from the {@code #senders:} line, or empty if the file has
 *     none
 * @param receiverNames host of each column from the {@code #receivers:} line, or empty
 */
public record MatrixFile(
    TrafficMatrix amounts, List<String> senderNames, List<String> receiverNames) {
  /** Copies the lists. */
  public MatrixFile {
    senderNames = List.copyOf(senderNames);
    receiverNames = List.copyOf(receiverNames);
  }

  /**
   * @return true when the file named its hosts ({@code #senders:} and {@code #receivers:} lines)
   */
  public boolean hasHostNames() {
    return !senderNames.isEmpty();
  }
}
