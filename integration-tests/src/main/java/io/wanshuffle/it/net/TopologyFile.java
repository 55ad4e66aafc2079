package io.wanshuffle.it.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The testbed's link model as a topology configuration file, the format {@code ./wan-shuffle plan
 * --topology} and the plugin ({@code spark.wanshuffle.topology.file}) read (docs/topology.md): the
 * mapping table beside it, every NIC at the NIC rate, the rack links at their rates ({@code none}
 * when unshaped), and per site its backbone side out and in. Rates are bytes/s integers (the
 * testbed's bits/s divided by 8, rounded).
 */
public final class TopologyFile {
  private TopologyFile() {}

  /**
   * @param spec the testbed
   * @param tableName the mapping table's path relative to the configuration file (normally the file
   *     name of a table in the same folder, so that both can be shipped together)
   * @return the configuration file's text
   */
  public static String text(TestbedSpec spec, String tableName) {
    StringBuilder sb = new StringBuilder();
    sb.append("# wan-shuffle testbed: ")
        .append(spec.describeShape())
        .append("\n# format: docs/topology.md (./wan-shuffle plan --topology)\n");
    sb.append("mapping.table = ").append(tableName).append('\n');
    sb.append("nic.rate = ").append(bytes(spec.nicBitsPerSecond())).append('\n');
    if (!spec.racksShaped()) {
      sb.append("rack.rate = none\n");
    } else {
      sb.append("rack.uplink.rate = ")
          .append(rackRate(spec.rackUplinkBitsPerSecond()))
          .append('\n');
      sb.append("rack.downlink.rate = ")
          .append(rackRate(spec.rackDownlinkBitsPerSecond()))
          .append('\n');
    }
    for (int s = 0; s < spec.sites(); s++) {
      String site = TestbedSpec.siteName(s);
      long side = bytes(spec.sideBitsPerSecond(s));
      sb.append("backbone.out.rate[/").append(site).append("] = ").append(side).append('\n');
      sb.append("backbone.in.rate[/").append(site).append("] = ").append(side).append('\n');
    }
    return sb.toString();
  }

  /**
   * Writes {@link #text} to a file.
   *
   * @param spec the testbed
   * @param file where to write (its folder is created)
   * @param tableName the mapping table's path relative to {@code file}
   * @return {@code file}
   * @throws UncheckedIOException if it cannot be written
   */
  public static Path write(TestbedSpec spec, Path file, String tableName) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, text(spec, tableName));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write topology configuration " + file, e);
    }
    return file;
  }

  /**
   * @param bitsPerSecond a rate, bits/s
   * @return bytes/s, rounded
   */
  public static long bytes(long bitsPerSecond) {
    return Math.round(bitsPerSecond / 8.0);
  }

  private static String rackRate(long bits) {
    return bits == TestbedSpec.UNSHAPED ? "none" : Long.toString(bytes(bits));
  }
}
