package io.wanshuffle.spark.coordinator.event;

/**
 * A link's window moved: the number of cross-site flows the coordinator admits on it at once, or
 * its rate in force (the rule: {@code coordinator.network.WindowRule}).
 *
 * @param link the link's name as the topology and the reports write it, e.g. {@code
 *     backbone.out[/A]}
 * @param capacity its capacity in flows at its configured rate
 * @param from the window before, flows
 * @param to the window from now on, flows
 * @param rateBytesPerSecond its rate in force from now on, bytes/s
 * @param reason why, in words
 * @param atMs when, epoch ms (driver clock)
 */
public record WindowChange(
    String link,
    int capacity,
    int from,
    int to,
    double rateBytesPerSecond,
    String reason,
    long atMs) {}
