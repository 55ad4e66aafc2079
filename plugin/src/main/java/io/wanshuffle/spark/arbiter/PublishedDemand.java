package io.wanshuffle.spark.arbiter;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one driver publishes in its node: its weight, its place in the order of demand starts and
 * its demand on each link it wants, and the node's bytes: version 4, the weight (double), the order
 * (long), the number of links (int), then per link in name order its name (modified UTF-8), bytes
 * wanted (long), flows wanted (int), since when the application has wanted some link without a
 * break (long, epoch ms; the same on every link), the usable flows (int) and the open flows (int).
 * Version-3 nodes (without the order), version-2 nodes (without usable and open flows either: all
 * usable, none open) and version-1 nodes (without the start either: starts 0) still read, with the
 * order 0 (not known). One node per application holds all its links, so a change of demand on any
 * number of links is one write.
 *
 * @param weight the application's weight, &gt; 0
 * @param order the application's place in the order of demand starts, lower first: the ZooKeeper
 *     transaction id (zxid) of the write that published the start of its current demand; 0 when not
 *     known (the write that carries 0 is then that start: readers take the node's modification
 *     zxid, {@link SiblingNodes}), &gt;= 0
 * @param links per link name, the demand ({@link LinkDemand#any()} true for every entry)
 */
record PublishedDemand(double weight, long order, Map<String, LinkDemand> links) {
  /** The layout's version, the node's first byte. */
  static final int VERSION = 4;

  /**
   * A node whose order is not known yet.
   *
   * @param weight the application's weight, &gt; 0
   * @param links per link name, the demand
   */
  PublishedDemand(double weight, Map<String, LinkDemand> links) {
    this(weight, 0, links);
  }

  /**
   * @param zxid the application's place in the order of demand starts
   * @return this node with that order
   */
  PublishedDemand withOrder(long zxid) {
    return new PublishedDemand(weight, zxid, links);
  }

  /** Keeps the links with demand, sorted by name. */
  PublishedDemand {
    if (order < 0) {
      throw new IllegalArgumentException("order must be >= 0, got " + order);
    }
    TreeMap<String, LinkDemand> kept = new TreeMap<>();
    links.forEach(
        (l, d) -> {
          if (d.any()) {
            kept.put(l, d);
          }
        });
    links = java.util.Collections.unmodifiableSortedMap(kept);
  }

  /**
   * @return the node's bytes
   */
  byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 + 32 * links.size());
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(VERSION);
      out.writeDouble(weight);
      out.writeLong(order);
      out.writeInt(links.size());
      for (Map.Entry<String, LinkDemand> e : links.entrySet()) {
        out.writeUTF(e.getKey());
        out.writeLong(e.getValue().bytesWanted());
        out.writeInt(e.getValue().flowsWanted());
        out.writeLong(e.getValue().sinceMs());
        out.writeInt(e.getValue().flowsUsable());
        out.writeInt(e.getValue().flowsOpen());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory", e);
    }
    return bytes.toByteArray();
  }

  /**
   * @param node a node's bytes
   * @return what they hold
   * @throws IllegalArgumentException if they are not a version-1 to -4 layout with a weight &gt; 0
   *     and demands &gt;= 0 (a driver of another plugin version, or a node someone else wrote)
   */
  static PublishedDemand decode(byte[] node) {
    if (node == null || node.length == 0) {
      throw new IllegalArgumentException("empty node");
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(node))) {
      int version = in.readUnsignedByte();
      if (version < 1 || version > VERSION) {
        throw new IllegalArgumentException(
            "layout version " + version + ", expected 1 to " + VERSION);
      }
      double weight = in.readDouble();
      if (!(weight > 0) || Double.isInfinite(weight)) {
        throw new IllegalArgumentException("weight " + weight);
      }
      long order = version < 4 ? 0 : in.readLong();
      if (order < 0) {
        throw new IllegalArgumentException("order " + order);
      }
      int n = in.readInt();
      if (n < 0 || n > node.length) {
        throw new IllegalArgumentException("link count " + n);
      }
      Map<String, LinkDemand> links = new TreeMap<>();
      for (int i = 0; i < n; i++) {
        String link = in.readUTF();
        long bytes = in.readLong();
        int flows = in.readInt();
        long since = version == 1 ? 0 : in.readLong();
        int usable = version < 3 ? flows : in.readInt();
        int open = version < 3 ? 0 : in.readInt();
        links.put(link, new LinkDemand(bytes, flows, since, usable, open));
      }
      if (in.available() > 0) {
        throw new IllegalArgumentException(in.available() + " bytes after the last link");
      }
      return new PublishedDemand(weight, order, links);
    } catch (IOException e) {
      throw new IllegalArgumentException("truncated node: " + e.getMessage(), e);
    }
  }
}
