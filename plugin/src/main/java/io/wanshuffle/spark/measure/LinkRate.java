package io.wanshuffle.spark.measure;

/**
 * One link's measured rate.
 *
 * @param link the link's name, e.g. {@code backbone.out[/A]}, {@code nic.down[b1]}
 * @param bytesPerSecond the rate the link achieved for its flows, bytes/s: what all its flows
 *     together moved per second while it carried them (its capacity when it was their bottleneck, a
 *     lower bound on it otherwise)
 * @param flows the flows it was measured from
 * @param fitted true when it is the slope of a Theil-Sen fit over flows of different sizes (TCP's
 *     ramp then falls into β); false when the flows were all about one size and it is the median
 *     rate of its flows (the ramp then falls into the rate)
 */
public record LinkRate(String link, double bytesPerSecond, int flows, boolean fitted) {}
