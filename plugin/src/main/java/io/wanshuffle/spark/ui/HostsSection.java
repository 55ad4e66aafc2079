package io.wanshuffle.spark.ui;

import io.wanshuffle.spark.topology.WanShuffleTopologyHost;
import java.util.List;

/**
 * The tab's list of executor hosts checked against the topology: how many it maps, the unmapped
 * ones (their shuffle blocks are fetched at once, never gated) and each mapped host's network path.
 */
final class HostsSection {
  private HostsSection() {}

  /**
   * @param hosts the executor hosts seen, sorted by host
   * @return the section's HTML; empty when no host was recorded (an event log of an older
   *     wan-shuffle)
   */
  static String of(List<WanShuffleTopologyHost> hosts) {
    if (hosts.isEmpty()) {
      return "";
    }
    List<WanShuffleTopologyHost> unmapped = hosts.stream().filter(h -> !h.mapped()).toList();
    List<WanShuffleTopologyHost> mapped =
        hosts.stream().filter(WanShuffleTopologyHost::mapped).toList();
    StringBuilder sb = new StringBuilder("<div id=\"wanshuffle-hosts\"><p>");
    sb.append("The topology maps ")
        .append(mapped.size())
        .append(" of ")
        .append(hosts.size())
        .append(" executor host")
        .append(hosts.size() == 1 ? "" : "s")
        .append(".</p>");
    if (!unmapped.isEmpty()) {
      sb.append("<p class=\"text-warning\" id=\"wanshuffle-unmapped\">Not in the topology (")
          .append(unmapped.size())
          .append("; their shuffle blocks are fetched at once, never gated): ")
          .append(
              String.join(
                  ", ",
                  unmapped.stream()
                      .map(h -> Html.esc(h.host()) + " (executor " + Html.esc(h.executorId()) + ")")
                      .toList()))
          .append("</p>");
    }
    if (!mapped.isEmpty()) {
      sb.append(
          Html.table(
              "wanshuffle-mapped",
              List.of("Mapped host", "Network path"),
              mapped.stream().map(h -> List.of(Html.esc(h.host()), Html.esc(h.path()))).toList()));
    }
    return sb.append("</div>").toString();
  }
}
