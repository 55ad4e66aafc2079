package io.wanshuffle.it.fault;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The kinds of fault the testbed injects, each with the form of its {@code --fault} spec ({@link
 * FaultSpec}).
 */
public enum FaultKind {
  /** The link drops every frame. */
  DOWN("down:LINK:AT:FOR", true, false),
  /** The link drops a share of its frames at random. */
  LOSS("loss:LINK:AT:FOR:P%", true, true),
  /** The link's shaped (tbf) rate changes. */
  RATE("rate:LINK:AT:FOR:RATE", true, true),
  /** The link's frames get an added one-way delay (the WAN delay line). */
  DELAY("delay:LINK:AT:FOR:MS", true, true),
  /** The host's traffic to and from the control host (the driver's host) is dropped. */
  PARTITION("partition:HOST:AT:FOR", false, false),
  /** The host's Spark executors get SIGKILL. */
  KILL("kill:HOST:AT", false, false);

  private final String form;
  private final boolean onLink;
  private final boolean hasArgument;

  FaultKind(String form, boolean onLink, boolean hasArgument) {
    this.form = form;
    this.onLink = onLink;
    this.hasArgument = hasArgument;
  }

  /**
   * @return the spec's form, e.g. {@code loss:LINK:AT:FOR:P%}
   */
  public String form() {
    return form;
  }

  /**
   * @return true when the target is a link, false when it is a host
   */
  public boolean onLink() {
    return onLink;
  }

  /**
   * @return true when the spec ends with an argument (P%, RATE, MS)
   */
  public boolean hasArgument() {
    return hasArgument;
  }

  /**
   * @return false for {@link #KILL} (nothing to undo, no FOR), true otherwise
   */
  public boolean lasts() {
    return this != KILL;
  }

  /**
   * @return true when the kind is applied with nftables ({@code nft})
   */
  public boolean needsNft() {
    return this == DOWN || this == LOSS || this == PARTITION;
  }

  /**
   * @return the kind's name in a spec ({@code down}, {@code loss}, ...)
   */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * @param word a spec's first field
   * @return the kind it names
   * @throws IllegalArgumentException naming the known kinds when it names none
   */
  public static FaultKind of(String word) {
    for (FaultKind k : values()) {
      if (k.word().equals(word)) {
        return k;
      }
    }
    throw new IllegalArgumentException(
        "unknown fault kind '"
            + word
            + "' (known: "
            + Arrays.stream(values()).map(FaultKind::word).collect(Collectors.joining(", "))
            + ")");
  }
}
