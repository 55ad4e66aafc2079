package io.wanshuffle.tools.report;

import io.wanshuffle.spark.capture.LinkChange;
import io.wanshuffle.spark.capture.StageCapture;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The report's section "Link windows and shares": each shared link's window ({@code
 * spark.wanshuffle.window=adaptive}) and this application's share of it (an arbiter splitting the
 * backbone between applications) over the application's run, as a step chart of flows against
 * seconds and a table of the changes; a sentence when the input records that nothing moved; nothing
 * when the input cannot say ({@link ApplicationCapture#linkChangesRecorded()}).
 */
final class LinkWindowsReport {
  /** Most links drawn (those with the most changes). */
  static final int MAX_LINKS = 8;

  /** Most changes listed in the table (the first). */
  static final int MAX_ROWS = 200;

  /** What the section says when no window or share moved. */
  static final String NO_CHANGE =
      "No link's window or this application's share of it moved: every link at its capacity, no"
          + " other application on the backbone.";

  private LinkWindowsReport() {}

  /**
   * Adds the section to a page.
   *
   * @param r the page
   * @param app the application: its link changes (flows, epoch ms) and its stages (for the time
   *     origin: the first cross-site demand, epoch ms)
   */
  static void append(HtmlReport r, ApplicationCapture app) {
    List<LinkChange> changes = app.linkChanges();
    if (changes.isEmpty() && !app.linkChangesRecorded()) {
      return;
    }
    r.heading("Link windows and shares");
    if (changes.isEmpty()) {
      r.paragraph(NO_CHANGE);
      return;
    }
    long t0 = origin(app, changes);
    long end = changes.get(changes.size() - 1).timeMs();
    for (StageCapture s : app.stages()) {
      end = Math.max(end, s.endMs());
    }
    Map<String, List<LinkChange>> byLink = new LinkedHashMap<>();
    for (LinkChange c : changes) {
      byLink.computeIfAbsent(c.link(), x -> new ArrayList<>()).add(c);
    }
    List<String> drawn = new ArrayList<>(byLink.keySet());
    if (drawn.size() > MAX_LINKS) {
      List<String> most = new ArrayList<>(drawn);
      most.sort(Comparator.comparingInt((String l) -> -byLink.get(l).size()));
      Set<String> kept = new HashSet<>(most.subList(0, MAX_LINKS));
      drawn.removeIf(l -> !kept.contains(l));
    }
    Map<String, List<double[]>> lines = new LinkedHashMap<>();
    Set<String> dashed = new HashSet<>();
    for (String link : drawn) {
      List<LinkChange> cs = byLink.get(link);
      int capacity = cs.get(0).capacity();
      List<double[]> window = new ArrayList<>();
      List<double[]> share = new ArrayList<>();
      window.add(new double[] {0, capacity});
      share.add(new double[] {0, capacity});
      for (LinkChange c : cs) {
        window.add(new double[] {seconds(c.timeMs(), t0), c.window()});
        share.add(new double[] {seconds(c.timeMs(), t0), c.share()});
      }
      LinkChange last = cs.get(cs.size() - 1);
      window.add(new double[] {seconds(end, t0), last.window()});
      share.add(new double[] {seconds(end, t0), last.share()});
      lines.put(link + " window", window);
      lines.put(link + " share", share);
      dashed.add(link + " window");
    }
    r.paragraph(
        String.format(
            Locale.ROOT,
            "%d change(s) on %d link(s): each time a shared link's window (the flows the"
                + " coordinator admits on it at once, spark.wanshuffle.window=adaptive) or this"
                + " application's share of it (applications splitting the backbone through the"
                + " arbiter) moved. Dashed: the link's window; solid: the flows this application"
                + " may hold on it (its share, the whole window when not split).%s",
            changes.size(),
            byLink.size(),
            drawn.size() < byLink.size()
                ? " The chart draws the " + drawn.size() + " links with the most changes."
                : ""));
    r.image(
        "Each link's window and this application's share of it (flows), seconds from the"
            + " application's first cross-site demand",
        Charts.steps(
            "link windows and shares",
            "seconds from the application's first cross-site demand",
            "flows",
            lines,
            dashed));
    List<List<String>> rows = new ArrayList<>();
    for (LinkChange c : changes.subList(0, Math.min(changes.size(), MAX_ROWS))) {
      rows.add(
          List.of(
              String.format(Locale.ROOT, "%.2f", seconds(c.timeMs(), t0)),
              c.link(),
              c.kind().csv(),
              Integer.toString(c.window()),
              Integer.toString(c.share()),
              Integer.toString(c.capacity()),
              c.otherApplications() < 0 ? "-" : Integer.toString(c.otherApplications())));
    }
    r.table(
        List.of(
            "s",
            "link",
            "moved",
            "window (flows)",
            "share (flows)",
            "capacity (flows)",
            "other applications"),
        rows);
    if (changes.size() > MAX_ROWS) {
      r.paragraph("The first " + MAX_ROWS + " of " + changes.size() + " changes.");
    }
  }

  /**
   * @return the application's first cross-site demand, or its first link change when earlier (or
   *     without stages), epoch ms
   */
  static long origin(ApplicationCapture app, List<LinkChange> changes) {
    long t0 = changes.get(0).timeMs();
    for (StageCapture s : app.stages()) {
      if (s.firstDemandMs() > 0) {
        t0 = Math.min(t0, s.firstDemandMs());
      }
    }
    return t0;
  }

  private static double seconds(long ms, long t0) {
    return (ms - t0) / 1000.0;
  }
}
