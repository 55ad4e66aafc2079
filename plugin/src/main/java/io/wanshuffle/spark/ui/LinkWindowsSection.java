package io.wanshuffle.spark.ui;

import io.wanshuffle.spark.capture.LinkChange;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The tab's section "Link windows and shares": per shared link, each time its window ({@code
 * spark.wanshuffle.window=adaptive}) or this application's share of it (an arbiter splitting the
 * backbone between applications) moved, with the window, the share and the capacity from then on in
 * flows; a sentence when nothing moved.
 */
final class LinkWindowsSection {
  /** Most changes listed (the latest). */
  static final int MAX_ROWS = 1000;

  /** Column headings. */
  static final List<String> HEADER =
      List.of(
          "Link",
          "Time (driver clock, UTC)",
          "What moved",
          "Window (flows)",
          "Share (flows)",
          "Capacity (flows)",
          "Other applications on the link");

  /** What the section says when no window or share moved. */
  static final String NO_CHANGE =
      "No change: every link at its capacity, no other application on the backbone.";

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

  private LinkWindowsSection() {}

  /**
   * @param changes the application's link changes in time order (epoch ms)
   * @return the section's HTML: a heading, then the changes grouped by link in time order (the
   *     latest {@value #MAX_ROWS}), or {@link #NO_CHANGE}
   */
  static String of(List<LinkChange> changes) {
    StringBuilder sb = new StringBuilder("<div id=\"wanshuffle-link-windows\">");
    sb.append("<h4>Link windows and shares</h4>");
    if (changes.isEmpty()) {
      return sb.append("<p id=\"wanshuffle-link-windows-none\">")
          .append(Html.esc(NO_CHANGE))
          .append("</p></div>")
          .toString();
    }
    sb.append(
        "<p>Each time a shared link's window (the flows the coordinator admits on it at once,"
            + " spark.wanshuffle.window=adaptive) or this application's share of it (applications"
            + " splitting the backbone through the arbiter) moved: the window, the flows this"
            + " application may hold on the link and its capacity from then on.");
    List<LinkChange> shown = changes;
    if (changes.size() > MAX_ROWS) {
      shown = changes.subList(changes.size() - MAX_ROWS, changes.size());
      sb.append(" The latest ").append(MAX_ROWS).append(" of ").append(changes.size()).append('.');
    }
    sb.append("</p>");
    List<LinkChange> byLink = new ArrayList<>(shown);
    byLink.sort(Comparator.comparing(LinkChange::link).thenComparingLong(LinkChange::timeMs));
    List<List<String>> rows = new ArrayList<>();
    for (LinkChange c : byLink) {
      rows.add(
          List.of(
              Html.esc(c.link()),
              TIME.format(Instant.ofEpochMilli(c.timeMs())),
              c.kind() == LinkChange.Kind.WINDOW ? "window" : "share",
              Integer.toString(c.window()),
              Integer.toString(c.share()),
              Integer.toString(c.capacity()),
              c.otherApplications() < 0 ? "-" : Integer.toString(c.otherApplications())));
    }
    return sb.append(Html.table("wanshuffle-link-changes", HEADER, rows))
        .append("</div>")
        .toString();
  }
}
