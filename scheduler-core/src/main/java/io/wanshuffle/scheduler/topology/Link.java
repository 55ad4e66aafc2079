package io.wanshuffle.scheduler.topology;

/**
 * One directed link of a topology.
 *
 * @param kind NIC, rack or backbone link, and its direction
 * @param owner the host name (NIC links), rack path {@code /cluster/rack} or cluster path {@code
 *     /cluster} (backbone sides)
 * @param rate capacity in bytes/s, &gt; 0
 */
public record Link(LinkKind kind, String owner, long rate) {
  /**
   * @return a readable name, e.g. {@code rack.uplink[/dc1/r2]}
   */
  public String name() {
    return kind.key().substring(0, kind.key().length() - ".rate".length()) + "[" + owner + "]";
  }
}
