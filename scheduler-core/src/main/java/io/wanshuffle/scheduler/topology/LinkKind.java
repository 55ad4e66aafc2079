package io.wanshuffle.scheduler.topology;

/**
 * The kinds of links of a host / rack / cluster tree, each with the configuration key that sets its
 * rate (see docs/topology.md). A transfer from host s to host d uses, in this order: the NIC
 * up-link of s; the uplink of s's rack (if d is in another rack); the outgoing side of the backbone
 * of s's cluster and the incoming side of d's cluster (if d is in another cluster); the downlink of
 * d's rack (another rack); the NIC down-link of d.
 */
public enum LinkKind {
  /** A host's NIC, sending direction; owner: the host name. */
  NIC_UP("nic.up.rate", true),
  /** A rack's uplink towards its cluster core; owner: the rack path {@code /cluster/rack}. */
  RACK_UPLINK("rack.uplink.rate", true),
  /** A cluster's side of the backbone, outgoing; owner: the cluster path {@code /cluster}. */
  BACKBONE_OUT("backbone.out.rate", true),
  /** A cluster's side of the backbone, incoming; owner: the cluster path {@code /cluster}. */
  BACKBONE_IN("backbone.in.rate", false),
  /** A rack's downlink from its cluster core; owner: the rack path. */
  RACK_DOWNLINK("rack.downlink.rate", false),
  /** A host's NIC, receiving direction; owner: the host name. */
  NIC_DOWN("nic.down.rate", false);

  private final String key;
  private final boolean senderSide;

  LinkKind(String key, boolean senderSide) {
    this.key = key;
    this.senderSide = senderSide;
  }

  /**
   * @return the configuration key of this kind's default rate, e.g. {@code rack.uplink.rate}
   */
  public String key() {
    return key;
  }

  /**
   * @return true for links on the sending side of a route (NIC up, rack uplink, backbone out)
   */
  public boolean senderSide() {
    return senderSide;
  }
}
