package io.wanshuffle.spark.capture;

import io.wanshuffle.spark.coordinator.event.CoordinatorListener;
import io.wanshuffle.spark.coordinator.event.ShareChange;
import io.wanshuffle.spark.coordinator.event.WindowChange;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The application's shared links over time: turns the coordinator's window and share events ({@link
 * CoordinatorListener#onWindowChanged}, {@link CoordinatorListener#onShareChanged}) into {@link
 * LinkChange}s that carry each link's whole state from then on (its window, the flows this
 * application may hold on it, its capacity, the other applications on it), for the link log and the
 * events.
 *
 * <p>A link starts at its capacity, wholly this application's. When its window moves, the flows
 * this application may hold follow it, unless a share below the old window holds them (then the
 * smaller of the share and the new window, as the coordinator admits until it asks the arbiter
 * again, {@code LinkFacts#window}); a window event that moves only the rate is no change. When the
 * share moves, the share event says it all.
 *
 * <p>Not thread-safe: called on the coordinator's callbacks, under its lock.
 */
final class LinkWindows {
  /** One link's state: window, share and capacity in flows; other applications, -1: unknown. */
  private static final class Link {
    int window;
    int share;
    int capacity;
    int others = -1;

    Link(int window, int capacity) {
      this.window = window;
      this.share = window;
      this.capacity = capacity;
    }
  }

  private final Map<String, Link> links = new HashMap<>();
  private final Consumer<LinkChange> out;

  /**
   * @param out where each change goes (the writer and the listener bus)
   */
  LinkWindows(Consumer<LinkChange> out) {
    this.out = Objects.requireNonNull(out, "out");
  }

  /**
   * @param c a link's window or rate moved; only a window that moved is a change
   */
  void window(WindowChange c) {
    if (c.from() == c.to()) {
      return;
    }
    Link l = links.computeIfAbsent(c.link(), x -> new Link(c.from(), c.capacity()));
    l.share = l.share < l.window ? Math.min(l.share, c.to()) : c.to();
    l.window = c.to();
    l.capacity = c.capacity();
    emit(c.atMs(), c.link(), LinkChange.Kind.WINDOW, l);
  }

  /**
   * @param c this application's share of a link's window moved
   */
  void share(ShareChange c) {
    Link l = links.computeIfAbsent(c.link(), x -> new Link(c.window(), c.capacity()));
    l.window = c.window();
    l.share = Math.min(c.to(), c.window());
    l.capacity = c.capacity();
    l.others = c.otherApplications();
    emit(c.atMs(), c.link(), LinkChange.Kind.SHARE, l);
  }

  private void emit(long atMs, String link, LinkChange.Kind kind, Link l) {
    out.accept(
        new LinkChange(atMs, link, kind, l.window, l.share, l.capacity, Math.max(-1, l.others)));
  }
}
