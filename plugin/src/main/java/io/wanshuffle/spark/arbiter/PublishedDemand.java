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
 * What one driver publishes in its node: its weight and its demand on each link it wants, and the
 * node's bytes: version 3, the weight (double), the number of links (int), then per link in name
 * order its name (modified UTF-8), bytes wanted (long), flows wanted (int), since when the
 * application has wanted some link without a break (long, epoch ms; the same on every link), the
 * usable flows (int) and the open flows (int). Version-2 nodes (without those two: all usable, none
 * open) and version-1 nodes (without the start either: starts 0) still read. One node per
 * application holds all its links, so a change of demand on any number of links is one write.
 *
 * @param weight the application's weight, &gt; 0
 * @param links per link name, the demand ({@link LinkDemand#any()} true for every entry)
 */
record PublishedDemand(double weight, Map<String, LinkDemand> links) {
  /** The layout's version, the node's first byte. */
  static final int VERSION = 3;

  /** Keeps the links with demand, sorted by name. */
  PublishedDemand {
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
   * @throws IllegalArgumentException if they are not a version-1, -2 or -3 layout with a weight
   *     &gt; 0 and demands &gt;= 0 (a driver of another plugin version, or a node someone else
   *     wrote)
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
      return new PublishedDemand(weight, links);
    } catch (IOException e) {
      throw new IllegalArgumentException("truncated node: " + e.getMessage(), e);
    }
  }
}
