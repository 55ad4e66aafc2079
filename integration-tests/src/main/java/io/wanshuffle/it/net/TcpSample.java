package io.wanshuffle.it.net;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kernel's state of one TCP connection at one instant, as {@code ss -tinHO state established}
 * prints it (iproute2; one line per socket: receive queue, send queue, local and peer address, then
 * the {@code tcp_info} fields).
 *
 * @param epochMillis when it was read, ms since the epoch
 * @param host the host (testbed node name) the connection belongs to
 * @param local local address:port
 * @param peer peer address:port
 * @param sendQueueBytes bytes written by the application and not yet acknowledged (the {@code
 *     Send-Q} column)
 * @param cwndSegments the congestion window, segments
 * @param rttMillis the smoothed round-trip time, ms
 * @param bytesAcked bytes acknowledged by the peer since the connection opened
 * @param retransmittedSegments segments retransmitted since the connection opened
 */
public record TcpSample(
    long epochMillis,
    String host,
    String local,
    String peer,
    long sendQueueBytes,
    int cwndSegments,
    double rttMillis,
    long bytesAcked,
    long retransmittedSegments) {

  private static final Pattern CWND = Pattern.compile("\\bcwnd:(\\d+)");
  private static final Pattern RTT = Pattern.compile("\\brtt:([0-9.]+)/");
  private static final Pattern ACKED = Pattern.compile("\\bbytes_acked:(\\d+)");
  private static final Pattern RETRANS = Pattern.compile("\\bretrans:\\d+/(\\d+)");

  /** CSV header of {@link #csv()}. */
  public static final String CSV_HEADER =
      "epochMillis,host,local,peer,sendQueueBytes,cwndSegments,rttMillis,"
          + "bytesAcked,retransmittedSegments";

  /**
   * Parses one line of {@code ss -tinHO state established}.
   *
   * @param epochMillis when the line was read, ms since the epoch
   * @param host the host it was read on
   * @param line the line
   * @return the sample, or empty for a line that is not a TCP socket with a congestion window (a
   *     socket whose {@code tcp_info} the kernel did not report)
   */
  public static Optional<TcpSample> parse(long epochMillis, String host, String line) {
    String[] f = line.trim().split("\\s+");
    Matcher cwnd = CWND.matcher(line);
    if (f.length < 5 || !cwnd.find() || !f[1].chars().allMatch(Character::isDigit)) {
      return Optional.empty();
    }
    Matcher rtt = RTT.matcher(line);
    Matcher acked = ACKED.matcher(line);
    Matcher retrans = RETRANS.matcher(line);
    return Optional.of(
        new TcpSample(
            epochMillis,
            host,
            f[2],
            f[3],
            Long.parseLong(f[1]),
            Integer.parseInt(cwnd.group(1)),
            rtt.find() ? Double.parseDouble(rtt.group(1)) : Double.NaN,
            acked.find() ? Long.parseLong(acked.group(1)) : 0,
            retrans.find() ? Long.parseLong(retrans.group(1)) : 0));
  }

  /**
   * @return the connection this sample is of: host, local and peer address
   */
  public String connection() {
    return host + " " + local + " " + peer;
  }

  /**
   * @return the peer's address without the port
   */
  public String peerAddress() {
    int colon = peer.lastIndexOf(':');
    return colon < 0 ? peer : peer.substring(0, colon);
  }

  /**
   * @return one CSV line, columns as {@link #CSV_HEADER}
   */
  public String csv() {
    return String.join(
        ",",
        Long.toString(epochMillis),
        host,
        local,
        peer,
        Long.toString(sendQueueBytes),
        Integer.toString(cwndSegments),
        Double.toString(rttMillis),
        Long.toString(bytesAcked),
        Long.toString(retransmittedSegments));
  }
}
