package io.wanshuffle.spark.arbiter;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The other applications' nodes as one driver read them, the newest version of each: a node is read
 * from two sources that may overtake each other (Curator's watch cache and the read that confirms
 * this driver's own claim, {@link ZooKeeperShare}), so a version older than the one kept (a lower
 * modification zxid) is ignored, and a node removed is not brought back by a read of it made before
 * its removal (the removed node's creation zxid is kept). A node whose own order is not known yet
 * ({@link PublishedDemand#order()} 0) takes its modification zxid as its order: that write is the
 * start of its demand, so every driver reads the same order.
 *
 * <p>Not thread-safe: the arbiter calls it under its view lock.
 */
final class SiblingNodes {
  private static final Logger LOG = LoggerFactory.getLogger(SiblingNodes.class);

  /** One node as read: its demand (order resolved) and the zxids of its creation and last write. */
  private record Node(PublishedDemand demand, long czxid, long mzxid) {}

  private final String self;
  private final Map<String, Node> nodes = new HashMap<>();

  /** Per name, the creation zxid of the last node removed under it. */
  private final Map<String, Long> removed = new HashMap<>();

  /** Nodes left out because they do not decode, each reported once. */
  private final Set<String> refused = new HashSet<>();

  /**
   * @param self this application's node name (never kept)
   */
  SiblingNodes(String self) {
    this.self = self;
  }

  /**
   * Keeps a node's content unless an equal or newer version of it is kept or it was removed since.
   *
   * @param path the node's path (its name after the last {@code /})
   * @param data its bytes
   * @param czxid the zxid that created it (0: not known)
   * @param mzxid the zxid of its last write (0: not known; such a read always replaces)
   * @param ownLinks the links this application wants now
   * @return whether this changes this application's shares: the node's demand, before or now, is on
   *     one of {@code ownLinks}
   */
  boolean read(String path, byte[] data, long czxid, long mzxid, Set<String> ownLinks) {
    String name = name(path);
    if (name.equals(self)) {
      return false;
    }
    Long gone = removed.get(name);
    if (gone != null && czxid != 0 && czxid <= gone) {
      return false;
    }
    Node kept = nodes.get(name);
    if (kept != null && mzxid != 0 && mzxid <= kept.mzxid()) {
      return false;
    }
    PublishedDemand now;
    try {
      now = PublishedDemand.decode(data);
    } catch (IllegalArgumentException e) {
      if (refused.add(name)) {
        LOG.warn(
            "wan-shuffle arbiter: node {} is not a wan-shuffle demand ({}); left out of the split",
            path,
            e.getMessage());
      }
      Node before = nodes.remove(name);
      return before != null && wants(before.demand(), ownLinks);
    }
    if (now.order() == 0 && mzxid != 0) {
      now = now.withOrder(mzxid);
    }
    Node before = nodes.put(name, new Node(now, czxid, mzxid));
    return (before != null && wants(before.demand(), ownLinks)) || wants(now, ownLinks);
  }

  /**
   * Forgets a node that was removed.
   *
   * @param path its path
   * @param czxid the zxid that created it (0: not known)
   * @param ownLinks the links this application wants now
   * @return whether this changes this application's shares
   */
  boolean remove(String path, long czxid, Set<String> ownLinks) {
    String name = name(path);
    if (czxid != 0) {
      removed.merge(name, czxid, Math::max);
    }
    Node before = nodes.remove(name);
    return before != null && wants(before.demand(), ownLinks);
  }

  /** Forgets every node (a fresh listing follows). */
  void clear() {
    nodes.clear();
  }

  /**
   * @return the other applications' published demands by name, a copy
   */
  Map<String, PublishedDemand> demands() {
    Map<String, PublishedDemand> d = new HashMap<>();
    nodes.forEach((name, n) -> d.put(name, n.demand()));
    return d;
  }

  /**
   * @return whether a published demand is on one of the links
   */
  private static boolean wants(PublishedDemand d, Set<String> links) {
    for (String link : links) {
      if (d.links().containsKey(link)) {
        return true;
      }
    }
    return false;
  }

  /**
   * @param path a node's path
   * @return its name, after the last {@code /}
   */
  static String name(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
