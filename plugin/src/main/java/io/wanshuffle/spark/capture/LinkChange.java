package io.wanshuffle.spark.capture;

import java.util.Locale;
import java.util.Objects;

/**
 * A shared link's window or this application's share of it moved: one row of the application's
 * {@value CaptureFiles#LINK_LOG} ({@link CaptureFiles#readLinkLog}) and the content of a {@link
 * WanShuffleLinkChanged} event. Each change carries the link's whole state from then on, so that
 * the rows of one link read in time order are its window and share over time ({@link LinkWindows}).
 *
 * @param timeMs when, epoch ms (driver clock)
 * @param link the link's name, e.g. {@code backbone.out[/A]} (docs/topology.md)
 * @param kind what moved: the link's own window or this application's share of it
 * @param window the link's own window from then on, flows (its capacity unless {@code
 *     spark.wanshuffle.window=adaptive} moved it), &gt;= 0
 * @param share the flows this application may hold on the link from then on, 0..{@code window}: its
 *     share of the window when several applications split it, else the whole window
 * @param capacity the link's capacity at its configured rate, flows, &gt;= 0
 * @param otherApplications the other applications with demand on the link when this application's
 *     share last moved, -1 when not known (no share moved on the link yet, or the arbiter does not
 *     say)
 */
public record LinkChange(
    long timeMs,
    String link,
    Kind kind,
    int window,
    int share,
    int capacity,
    int otherApplications) {

  /** What moved. */
  public enum Kind {
    /** The link's own window ({@code spark.wanshuffle.window=adaptive}). */
    WINDOW,
    /**
     * This application's share of the link's window (an arbiter splits it between applications).
     */
    SHARE;

    /**
     * @return the kind as the link log writes it: {@code window} or {@code share}
     */
    public String csv() {
      return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param s {@code window} or {@code share}
     * @return the kind
     * @throws IllegalArgumentException naming {@code s} when it is neither
     */
    public static Kind ofCsv(String s) {
      for (Kind k : values()) {
        if (k.csv().equals(s)) {
          return k;
        }
      }
      throw new IllegalArgumentException("kind must be window or share, got '" + s + "'");
    }
  }

  /**
   * Checks the change.
   *
   * @throws NullPointerException if {@code link} or {@code kind} is null
   * @throws IllegalArgumentException if {@code link} is empty, {@code window} or {@code capacity}
   *     is negative, {@code share} is outside 0..{@code window}, or {@code otherApplications} is
   *     below -1
   */
  public LinkChange {
    Objects.requireNonNull(link, "link");
    Objects.requireNonNull(kind, "kind");
    if (link.isEmpty()) {
      throw new IllegalArgumentException("a link change needs the link's name");
    }
    if (window < 0 || capacity < 0) {
      throw new IllegalArgumentException(
          "window and capacity must be >= 0 flows, got " + window + " and " + capacity);
    }
    if (share < 0 || share > window) {
      throw new IllegalArgumentException(
          "share must be 0.." + window + " flows (the window), got " + share);
    }
    if (otherApplications < -1) {
      throw new IllegalArgumentException(
          "otherApplications must be >= -1 (-1: not known), got " + otherApplications);
    }
  }
}
